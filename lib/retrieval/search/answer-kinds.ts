// Answer kinds: a question that asks for a kind of thing — activities, a place, a title, a number, a
// person — is answered by a turn that holds one ("What does Dave do for fun?" — "went hiking with
// my brother"), often without sharing a word with the question. Which kinds a message asks for, and
// which a turn holds, read off the words; the conversation ranker weighs the match
// (conversation-ranker.ts). Pure functions.

import { MONTHS, WEEKDAYS } from "./time-signals";

export const ANSWER_KINDS = ["activity", "place", "title", "number", "person"] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** What a message asks for, each kind by the words that ask for it. */
const ASKS: Record<AnswerKind, RegExp> = {
  activity: /activit|hobb|\bfor fun\b|\blike to do\b|\bsports?\b|\bpastimes?\b|\bdo to (?:relax|destress|de-stress|unwind)\b|\bways\b/i,
  place: /\bwhere\b|\bplaces?\b|\btravel|\bvisit|\bcountr(?:y|ies)\b|\bcit(?:y|ies)\b|\btrips?\b/i,
  title: /\bbooks?\b|\bfilms?\b|\bmovies?\b|\bsongs?\b|\bgames?\b|\bshows?\b|\balbums?\b|\bbands?\b|\bmusic/i,
  number: /\bhow (?:many|much|old|long)\b/i,
  person: /\bwho\b|\bwhom\b/i,
};

/** Words ending in "-ing" that name no activity. */
const EVERYDAY_ING = new Set(
  "thing things something nothing anything everything going doing being having getting feeling thinking looking making saying trying coming taking wondering amazing interesting during morning evening bring king ring wedding".split(
    " ",
  ),
);
/** Words that name a place without a capital letter. */
const PLACE_WORDS = new Set(
  "park beach city country lake mountain mountains museum restaurant cafe library school church festival concert trip travel traveled travelled visited visit camping hiking island state town village forest river ocean sea zoo gym studio shelter hospital".split(
    " ",
  ),
);
const NUMBER_WORDS = new Set("one two three four five six seven eight nine ten eleven twelve twenty thirty hundred first second third couple few several".split(" "));
/** Capitalised for being days and months, not names. */
const CALENDAR = new Set([...WEEKDAYS, ...MONTHS]);

/** A word as names are compared: lower case, accents dropped ("José" and "jose" are one name). */
export const foldWord = (word: string) => word.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/** The kinds of answer a message asks for (none for most). */
export function askedKinds(message: string): AnswerKind[] {
  return ANSWER_KINDS.filter((kind) => ASKS[kind].test(message));
}

/**
 * Capitalised words inside a sentence (not its first word): names of people, places and titles.
 * `known` (folded by foldWord) are left out: the speakers, whose names a turn holds without
 * answering anything, and the message's own words.
 */
function namesIn(text: string, known: ReadonlySet<string>): string[] {
  const names: string[] = [];
  for (const sentence of text.split(/[.!?:;\n]+/)) {
    const words = sentence.match(/[\p{L}\p{N}']+/gu) ?? [];
    for (const word of words.slice(1)) {
      const folded = foldWord(word);
      if (/^\p{Lu}\p{Ll}+$/u.test(word) && !known.has(folded) && !CALENDAR.has(folded)) names.push(word);
    }
  }
  return names;
}

/** The kinds of answer a turn holds: `text` what was said, `captions` what its photos showed. */
export function heldKinds(text: string, captions: string, known: ReadonlySet<string>): Set<AnswerKind> {
  const words = wordsOf(`${text} ${captions}`);
  const named = namesIn(text, known).length > 0;
  const held = new Set<AnswerKind>();
  if (words.some((w) => w.length > 5 && w.endsWith("ing") && !EVERYDAY_ING.has(w))) held.add("activity");
  if (named || words.some((w) => PLACE_WORDS.has(w))) held.add("place");
  if (named || /"[^"]+"|“[^”]+”/.test(text)) held.add("title");
  if (words.some((w) => /^\d+$/.test(w) || NUMBER_WORDS.has(w))) held.add("number");
  if (named) held.add("person");
  return held;
}
