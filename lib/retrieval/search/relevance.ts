import { wordWeight } from "@/lib/embeddings/local";
import { editDistance } from "@/lib/knowledge/spelling";

/**
 * The relevance floor. Full text matches any word of a message and nearest-neighbour search always
 * returns something, so a search for nonsense ("zzzqqq nothing") would still answer with whatever
 * shares a common word or sits nearest. An answer is returned only if one of its items matches at
 * least MIN_COVERAGE of the message's word weight (rare words weigh most: see `coverage`), or two
 * of its content words, or is at least `strongSimilarity` close in meaning; then items that share
 * no word with the message must be that close too (a caller may count other reasons as a shared
 * word: `matched`).
 */
export const MIN_COVERAGE = 0.45;
/**
 * Cosine similarity that counts as the same meaning: the local model (centred averages of word
 * vectors) / other models. For the local model, 0.2% of (question, unrelated conversation turn)
 * pairs are this close, and 5% of (question, turn that answers it) pairs (LoCoMo development
 * conversations; 0.65, four times as many of both, found no more evidence). A message of one known
 * word has that word's vector: a text holding it is often 0.6–0.7 close, which is not the same meaning.
 */
export const STRONG_SIMILARITY = {
  local: 0.75,
  other: 0.5,
  /**
   * a conversation turn against the message mapped by the conversation ranker's question adapter
   * (conversation-ranker.ts): the same 0.2% of unrelated pairs are this close, and 10% of the
   * answering ones (the adapter fitted without the conversation measured)
   */
  localConversation: 0.6,
} as const;

/**
 * Once a conversation list answers, a turn the learned ranker put in its top ten that shares no word
 * with the message stays if it is this close to the adapted message: related, not the same meaning
 * (the ranker has already weighed the closeness against everything else it knows of the turn). Among
 * the search's 30 candidates for the LoCoMo development questions, 64% of the answering turns and 30%
 * of the others are this close; lower, the two shares converge (0.3: 85% and 59%). Another model's
 * cosines run on another scale: for it the turn must be as close as the same meaning.
 */
export const RELATED_TURN_SIMILARITY = { local: 0.4, other: STRONG_SIMILARITY.other } as const;

const STOP = new Set(
  (
    "a about an and are as at be been but by can could did do does for from had has have he her him his how i if in into is it " +
    "its me my no not of on or our she should so than that the their them then there these they this to too us was we were " +
    "what when where which who why will with would you your"
  ).split(" "),
);

const words = (text: string) => text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").match(/[\p{L}\p{N}]+/gu) ?? [];
/** a crude stem, enough to tell whether a text holds a form of the word */
const stem = (w: string) => (w.length > 5 ? w.slice(0, Math.max(4, w.length - 3)) : w);

/** The message's content words and their weights. */
export function queryTerms(message: string): { stem: string; weight: number }[] {
  const seen = new Map<string, number>();
  for (const w of words(message)) {
    if (STOP.has(w) || (w.length < 2 && !/\d/.test(w))) continue;
    const s = stem(w);
    seen.set(s, Math.max(seen.get(s) ?? 0, wordWeight(w)));
  }
  return [...seen].map(([s, weight]) => ({ stem: s, weight }));
}

/** Share (0–1) of the terms' weight whose word occurs in `text` (in some form). */
export function coverage(terms: { stem: string; weight: number }[], text: string): number {
  return match(terms, text).coverage;
}

/** The text as its words are compared: lower case, accents dropped (ASCII text has none to drop). */
const fold = (text: string) => {
  const lower = text.toLowerCase();
  return /[\u0080-\uffff]/.test(lower) ? lower.normalize("NFKD").replace(/\p{M}/gu, "") : lower;
};
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * Whether a word of the folded text starts with `stem` (itself letters and digits only): an
 * occurrence that no letter or digit precedes. Searched, not split into words: the texts are the
 * hits' whole contents.
 */
function hasWordStartingWith(text: string, stem: string): boolean {
  for (let i = text.indexOf(stem); i >= 0; i = text.indexOf(stem, i + 1)) {
    if (i === 0) return true;
    const low = text.charCodeAt(i - 1);
    // the character before, whole when it is the second half of a surrogate pair
    const before = low >= 0xdc00 && low <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text[i - 1]!;
    if (!WORD_CHAR.test(before)) return true;
  }
  return false;
}

/**
 * How much of the message `text` holds: the share of the terms' weight and how many terms. `day`
 * (the words of a date) counts as one term at most, with the weight of its heaviest word the text
 * does not hold already.
 */
function match(terms: { stem: string; weight: number }[], text: string, day?: string, nearMisses = false) {
  const total = terms.reduce((s, t) => s + t.weight, 0);
  if (!total) return { coverage: 0, count: 0 };
  const folded = fold(text);
  const foldedDay = day ? fold(day) : "";
  const stems = nearMisses ? new Set(words(folded).map(stem)) : null;
  let weight = 0;
  let count = 0;
  let dayWeight = 0;
  for (const t of terms) {
    if (hasWordStartingWith(folded, t.stem) || (stems && nearMiss(t.stem, stems))) {
      weight += t.weight;
      count++;
    } else if (foldedDay && hasWordStartingWith(foldedDay, t.stem)) dayWeight = Math.max(dayWeight, t.weight);
  }
  return { coverage: (weight + dayWeight) / total, count: count + (dayWeight > 0 ? 1 : 0) };
}

/**
 * Whether the text's word stems hold one a letter or two from `term` (one for words of up to four
 * letters, two from five), starting with the same letter: a misspelling, not another short word.
 */
function nearMiss(term: string, stems: Set<string>): boolean {
  if (term.length < 3 || /\d/.test(term)) return false;
  const most = term.length >= 5 ? 2 : 1;
  for (const s of stems) {
    if (s[0] === term[0] && Math.abs(s.length - term.length) <= most && editDistance(term, s) <= most) return true;
  }
  return false;
}

/**
 * What the floor reads of a hit. `matched`: the search found the item by its words (else: whether the
 * text shares one). `day`: the day it was said ("10 April 2022"), searched with it: a month and a
 * year of it the message names count as one of the message's words (so "zzzqqq nothing in April
 * 2022" is still nonsense).
 */
type FloorInput = { text: string; similarity: number | null; matched?: boolean; day?: string };

/**
 * Applies the floor to one scope's hits (best first): nothing when none is relevant enough, else
 * the hits that share a word with the message or are close in meaning.
 */
export function applyFloor<T>(
  hits: T[],
  get: (h: T) => FloorInput,
  message: string,
  strongSimilarity: number,
  options: FloorOptions = {},
): T[] {
  return judgeScope(hits, get, message, strongSimilarity, options).kept;
}

interface FloorOptions {
  /**
   * Whether an answer is given at all also counts a word of the message as held when the text holds
   * one a letter or two from it ("gaz leak" holds "gas leak", "drane" holds "drain"): a misspelling that
   * is a word elsewhere must not make the rest of the message too light. Which items are kept does not
   * change: those the search found by their words, or close in meaning.
   */
  nearMisses?: boolean;
}

/**
 * The floor over one scope's hits, and how well the best of those kept answers the message
 * (`strength`, 0–1): the share of the message's word weight it holds, or 1 when it is close in
 * meaning. A scope scores its items against its own best, so its best item scores high whether it
 * holds the message's rare words or only one of its commoner ones; the strength tells the two apart
 * when scopes are ranked together.
 */
export function judgeScope<T>(
  hits: T[],
  get: (h: T) => FloorInput,
  message: string,
  strongSimilarity: number,
  options: FloorOptions = {},
): { kept: T[]; strength: number } {
  const terms = queryTerms(message);
  const judged = hits.map((h) => {
    const g = get(h);
    const m = match(terms, g.text, g.day);
    const gate = options.nearMisses ? match(terms, g.text, g.day, true) : m;
    return { h, ...m, gate, matched: g.matched ?? m.count > 0, similarity: g.similarity ?? 0 };
  });
  if (!judged.some((j) => j.gate.coverage >= MIN_COVERAGE || j.gate.count >= 2 || j.similarity >= strongSimilarity)) return { kept: [], strength: 0 };
  const kept = judged.filter((j) => j.matched || j.similarity >= strongSimilarity);
  return { kept: kept.map((j) => j.h), strength: Math.max(0, ...kept.map((j) => (j.similarity >= strongSimilarity ? 1 : j.coverage))) };
}
