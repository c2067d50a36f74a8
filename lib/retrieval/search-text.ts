/**
 * Turns a chat message into a full-text query for the hybrid search functions
 * (websearch_to_tsquery syntax): its content words joined with "or".
 *
 * A message is not a keyword query. websearch_to_tsquery ANDs plain words, so "should we move the
 * backtest to next week" would only find a memory holding every one of those words. With "or" any
 * word may match and ts_rank_cd still ranks memories matching several first; the vector half
 * carries the meaning. Punctuation is dropped so nothing is read as an operator ("-word" is NOT,
 * quotes are phrases), and the word "or" itself is left out for the same reason.
 */
/** each word is probed against the rows searched (see the retrieval migration), so keep it short */
export const MAX_QUERY_WORDS = 12;

const STOP = new Set(
  (
    "a about an and are as at be been but by can could did do does for from had has have he her him his how i if in into is it " +
    "its me my no not of on or our she should so than that the their them then there these they this to too us was we were " +
    "what when where which who why will with would you your i'm i've it's let's that's what's don't didn't can't isn't"
  ).split(" "),
);

export function searchText(message: string): string {
  const words = message.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of words) {
    const word = raw.replace(/['’].*$/, "");
    if (word.length < 2 && !/\d/.test(word)) continue;
    if (STOP.has(raw.replace("’", "'")) || STOP.has(word) || seen.has(word)) continue;
    seen.add(word);
    out.push(word);
    if (out.length === MAX_QUERY_WORDS) break;
  }
  return out.join(" or ");
}
