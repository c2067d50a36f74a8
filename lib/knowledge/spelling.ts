/** The knowledge search's "did you mean": how the spelling check's corrections are applied and when they are offered. */

/** A correction of the searched words: `count` words from `position` (1-based) read as `suggestion`. */
export interface SpellingFix {
  word: string;
  position: number;
  count: number;
  suggestion: string;
}

/**
 * "Did you mean" is offered beside what the words as typed found only when the suggestion finds
 * much more: at least twice as many matches, and at least two more ("refunds" finding 15 entries is
 * not corrected to "refund" finding 15).
 */
export function findsMuchMore(suggested: number, typed: number): boolean {
  return suggested >= 2 * typed && suggested - typed >= 2;
}

/**
 * Whether a correction could be offered at all beside `typed` matches of a search for at most
 * `limit`: the corrected words find at most `limit` too, so once the words as typed found more than
 * half of it no suggestion can find "much more", and the spelling check is not run.
 */
export function correctionCouldHelp(typed: number, limit: number): boolean {
  return typed === 0 || findsMuchMore(limit, typed);
}

/**
 * Edits from `a` to `b`: a letter added, dropped or changed, or two neighbouring letters swapped, each
 * one edit (optimal string alignment, as the spelling check's SQL counts them).
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Whether a correction is a plausible reading of what was typed. A word of the English vocabulary
 * (`isWord`) is spelt right as far as a check can tell: it is only read as a word one edit away
 * ("polity" → "policy"), never as one further off ("choice" is not "voice", "invoice" not "voice")
 * nor split in two ("withdraw" is not "with draw"). Other words take every correction the check found.
 */
export function plausibleFix(fix: SpellingFix, isWord: (word: string) => boolean): boolean {
  if (fix.count > 1 || !isWord(fix.word)) return true;
  return !fix.suggestion.includes(" ") && editDistance(fix.word, fix.suggestion) <= 1;
}

/** The searched words with the spelling check's corrections applied, or null when it found none. */
export function correctedWords(words: string[], fixes: SpellingFix[]): string | null {
  if (!fixes.length) return null;
  const out: string[] = [];
  let next = 1;
  // in word order; a correction overlapping one already applied (the longer one comes first) is skipped
  for (const fix of [...fixes].sort((a, b) => a.position - b.position || b.count - a.count)) {
    if (fix.position < next) continue;
    out.push(...words.slice(next - 1, fix.position - 1), fix.suggestion);
    next = fix.position + fix.count;
  }
  out.push(...words.slice(next - 1));
  return out.join(" ");
}

