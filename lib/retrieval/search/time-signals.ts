// Signals for questions about time ("when did…", "what happened in May 2023?"): whether a message asks
// when, whether a turn says when (a time expression), and whether a turn happened in a month or year
// the message names. Pure functions; the conversation ranker weighs them (conversation-ranker.ts).

export const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const WEEKDAY = WEEKDAYS.join("|");
const MONTH = MONTHS.join("|");
const SEASON = "spring|summer|fall|autumn|winter";
const NUMBER = "a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple(?: of)?|several|\\d+";
const UNIT = "days?|weeks?|months?|years?|hours?";

/** "When did…", "what year…", "how long ago…", "since when…" */
const WHEN_QUESTION = new RegExp(
  [
    "^\\s*when\\b",
    "\\b(?:what|which) (?:year|month|day|date|time|week|season)\\b",
    "\\bhow long ago\\b",
    "\\bhow long (?:has|have|had|did|was|were)\\b",
    "\\bsince when\\b",
    "\\bin (?:what|which) (?:year|month)\\b",
  ].join("|"),
  "i",
);

/** Words that place what a turn tells in time: "yesterday", "last week", "two days ago", "in May", "2022". */
const TIME_EXPRESSION = new RegExp(
  "\\b(?:" +
    [
      "yesterday",
      "today",
      "tonight",
      "tomorrow",
      "recently",
      "lately",
      "the other day",
      "this (?:morning|afternoon|evening|week|weekend|month|year|past \\w+)",
      `(?:last|next|this|past) (?:night|week|weekend|month|year|time|${SEASON}|${WEEKDAY})`,
      `(?:on|since|by) (?:${WEEKDAY})`,
      `(?:${NUMBER}) (?:${UNIT}) (?:ago|back|later|before)`,
      "a while (?:ago|back)",
      "earlier (?:today|this \\w+)",
      "over the weekend",
      `(?:in|since|during|last|this|next|early|late|mid|of) (?:${MONTH})`,
      `(?:${MONTH}) \\d{1,2}(?:st|nd|rd|th)?`,
      "(?:19|20)\\d\\d",
    ].join("|") +
    ")\\b",
  "i",
);

/** Whether the message asks when something happened (or how long ago). */
export function isWhenQuestion(message: string): boolean {
  return WHEN_QUESTION.test(message);
}

/** Whether the text places something in time. */
export function hasTimeExpression(text: string): boolean {
  return TIME_EXPRESSION.test(text);
}

/** A month of a year, a month of any year, or a year, named in a message. */
export interface NamedPeriod {
  year: number | null;
  /** 1–12 */
  month: number | null;
}

const MONTH_YEAR = new RegExp(`\\b(${MONTH})(?:\\s+\\d{1,2}(?:st|nd|rd|th)?)?(?:,?\\s+((?:19|20)\\d\\d))?\\b`, "gi");
const YEAR = /\b((?:19|20)\d\d)\b/g;
/** "may" alone is mostly the verb: a month only next to a year or a preposition of time */
const MAY_AS_MONTH = /\b(?:in|of|early|late|mid|during|since|before|after|until|by)\s+may\b/i;

/** The months and years a message names ("in May 2023", "January", "during 2022"). */
export function namedPeriods(message: string): NamedPeriod[] {
  const out: NamedPeriod[] = [];
  for (const m of message.matchAll(MONTH_YEAR)) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    const year = m[2] ? Number(m[2]) : null;
    if (month === 5 && year === null && !MAY_AS_MONTH.test(message)) continue;
    out.push({ year, month });
  }
  for (const m of message.matchAll(YEAR)) {
    const year = Number(m[1]);
    if (!out.some((p) => p.year === year)) out.push({ year, month: null });
  }
  return out;
}

/**
 * How well a turn's time fits the periods a message names: 1 when it happened in a named month of a
 * named year, 0.6 when only its year or only its month matches a period named alone, else 0.
 */
export function periodMatch(periods: readonly NamedPeriod[], occurredAt: Date | string): number {
  if (!periods.length) return 0;
  const at = new Date(occurredAt);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() + 1;
  let best = 0;
  for (const p of periods) {
    if (p.year !== null && p.month !== null) best = Math.max(best, p.year === year && p.month === month ? 1 : 0);
    else if (p.year !== null) best = Math.max(best, p.year === year ? 0.6 : 0);
    else if (p.month !== null) best = Math.max(best, p.month === month ? 0.6 : 0);
  }
  return best;
}
