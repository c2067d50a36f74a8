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

