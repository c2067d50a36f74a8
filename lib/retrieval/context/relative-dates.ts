// The times a text gives relative to when it was said ("yesterday", "last week", "three years ago"),
// resolved against that moment, so that an agent reading a retrieved turn or memory can answer "when"
// without counting days itself. Pure functions; days are UTC days, as every date in the context is.

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const SEASONS: Record<string, number> = { spring: 3, summer: 6, fall: 9, autumn: 9, winter: 12 };
const COUNTS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const COUNT = `\\d{1,2}|${Object.keys(COUNTS).join("|")}`;

/** One time expression of a text and what it means. */
export interface ResolvedDate {
  /** the words as the text has them ("last week") */
  expression: string;
  /** what they mean, said when the text was ("the week before 8 May 2023") */
  means: string;
}

const DAY_MS = 24 * 3600 * 1000;
const utcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);
/** "7 May 2023" (the UTC day, as the conversation search indexes a turn's day) */
export const longDay = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
/** the month `n` months from `d`'s ("April 2023") */
const monthFrom = (d: Date, n: number) => {
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  return `${MONTHS[m.getUTCMonth()]} ${m.getUTCFullYear()}`;
};
const countOf = (word: string) => COUNTS[word.toLowerCase()] ?? Number(word);
/** "last week", but not "the last week of July" nor "his last year at school" */
const NOT_NAMED = "(?<!\\b(?:the|my|our|your|his|her|their|its|a) )";

interface Rule {
  pattern: RegExp;
  means: (m: RegExpExecArray, said: Date) => string | null;
}

const RULES: Rule[] = [
  { pattern: /\byesterday\b/gi, means: (_, d) => longDay(addDays(d, -1)) },
  { pattern: /\blast night\b/gi, means: (_, d) => `the night of ${longDay(addDays(d, -1))}` },
  { pattern: /\btomorrow\b/gi, means: (_, d) => longDay(addDays(d, 1)) },
  { pattern: new RegExp(`${NOT_NAMED}\\b(last|next) week\\b`, "gi"), means: (m, d) => `the week ${m[1]!.toLowerCase() === "last" ? "before" : "after"} ${longDay(d)}` },
  { pattern: new RegExp(`${NOT_NAMED}\\b(last|next|this) weekend\\b`, "gi"), means: (m, d) => `the weekend ${{ last: "before", next: "after", this: "of" }[m[1]!.toLowerCase()]} ${longDay(d)}` },
  { pattern: new RegExp(`${NOT_NAMED}\\b(last|next|this) month\\b`, "gi"), means: (m, d) => monthFrom(d, { last: -1, next: 1, this: 0 }[m[1]!.toLowerCase()]!) },
  { pattern: new RegExp(`${NOT_NAMED}\\b(last|next|this) year\\b`, "gi"), means: (m, d) => String(d.getUTCFullYear() + { last: -1, next: 1, this: 0 }[m[1]!.toLowerCase()]!) },
  {
    // the weekday before (or after) the day it was said: "last Friday" said on Monday 9 October is 6 October
    pattern: new RegExp(`${NOT_NAMED}\\b(last|next) (${WEEKDAYS.join("|")})\\b`, "gi"),
    means: (m, d) => {
      const want = WEEKDAYS.indexOf(m[2]!.toLowerCase());
      const back = m[1]!.toLowerCase() === "last";
      let diff = back ? (d.getUTCDay() - want + 7) % 7 : (want - d.getUTCDay() + 7) % 7;
      if (diff === 0) diff = 7;
      const day = addDays(d, back ? -diff : diff);
      return `${m[2]![0]!.toUpperCase()}${m[2]!.slice(1).toLowerCase()} ${longDay(day)}`;
    },
  },
  {
    // the season most recently over ("last summer" said in October 2023 is summer 2023; in May, 2022's)
    pattern: new RegExp(`${NOT_NAMED}\\blast (${Object.keys(SEASONS).join("|")})\\b`, "gi"),
    means: (m, d) => {
      const season = m[1]!.toLowerCase();
      const ends = SEASONS[season]! + 2; // the season's last month, 1-12 (winter runs into February)
      const year = d.getUTCFullYear();
      const over = season === "winter" ? d.getUTCMonth() + 1 > 2 : d.getUTCMonth() + 1 > ends;
      return `${season} ${over ? (season === "winter" ? `${year - 1}–${year}` : year) : season === "winter" ? `${year - 2}–${year - 1}` : year - 1}`;
    },
  },
  {
    pattern: new RegExp(`\\b(${COUNT}|a few|a couple of|few|couple of|several) (days?|weeks?|months?|years?) ago\\b`, "gi"),
    means: (m, d) => {
      const unit = m[2]!.toLowerCase().replace(/s$/, "");
      const vague = /few|couple|several/i.test(m[1]!);
      if (vague) return `a few ${unit}s before ${unit === "year" ? d.getUTCFullYear() : unit === "month" ? monthFrom(d, 0) : longDay(d)}`;
      const n = countOf(m[1]!);
      if (!Number.isFinite(n)) return null;
      if (unit === "day") return longDay(addDays(d, -n));
      if (unit === "week") return `the week of ${longDay(addDays(d, -7 * n))}`;
      if (unit === "month") return monthFrom(d, -n);
      return String(d.getUTCFullYear() - n);
    },
  },
];

/**
 * The relative times in `text`, resolved against `said` (when the text was said or written), in the
 * order they appear; each expression once.
 */
export function resolveRelativeDates(text: string, said: Date | string): ResolvedDate[] {
  const at = new Date(said);
  if (Number.isNaN(at.getTime())) return [];
  const day = utcDay(at);
  const found: { index: number; expression: string; means: string }[] = [];
  for (const rule of RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      const means = rule.means(m as RegExpExecArray, day);
      if (means) found.push({ index: m.index ?? 0, expression: m[0], means });
    }
  }
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.index - b.index)
    .filter((f) => {
      const key = f.expression.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map(({ expression, means }) => ({ expression, means }));
}

/**
 * The line a context item gets under its text when the text gives times relative to when it was
 * said: `(said 8 May 2023: "yesterday" = 7 May 2023; "last week" = the week before 8 May 2023)`;
 * empty when it gives none.
 */
export function relativeDatesLine(text: string, said: Date | string): string {
  const resolved = resolveRelativeDates(text, said);
  if (!resolved.length) return "";
  return `(said ${longDay(utcDay(new Date(said)))}: ${resolved.map((r) => `"${r.expression}" = ${r.means}`).join("; ")})`;
}
