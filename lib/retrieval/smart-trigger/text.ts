/**
 * The text the smart trigger reads: a message normalised so that spellings of one thing agree, and
 * the part of it that is a request rather than material to work on.
 */
import { EDITING_TASK } from "./patterns";

/**
 * Lower case, straight apostrophes and quotes, negations folded to "n't" ("did not" → "didn't",
 * "dont" → "don't") and a few contractions spelled one way, whitespace collapsed.
 */
export function normalizeMessage(message: string): string {
  return message
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\b(do|does|did|is|are|was|were|have|has|had|could|would|should|can|won|wo)\s+not\b/g, (_, v: string) =>
      v === "can" ? "can't" : v === "won" || v === "wo" ? "won't" : `${v}n't`,
    )
    .replace(/\bcannot\b/g, "can't")
    .replace(/\b(didnt|dont|doesnt|isnt|arent|wasnt|havent|hasnt|cant|wont|shouldnt|couldnt|wouldnt)\b/g, (w) =>
      w === "cant" ? "can't" : w === "wont" ? "won't" : `${w.slice(0, -1)}'t`,
    )
    .replace(/\b(whats|thats|lets|youre|im|ive)\b/g, (w) => CONTRACTIONS[w] ?? w)
    .replace(/\bwhat is\b/g, "what's")
    .replace(/\bthat is\b/g, "that's")
    .replace(/\blet us\b/g, "let's")
    .replace(/\byou are\b/g, "you're")
    .replace(/\s+/g, " ")
    .trim();
}

const CONTRACTIONS: Record<string, string> = {
  whats: "what's",
  thats: "that's",
  lets: "let's",
  youre: "you're",
  im: "i'm",
  ive: "i've",
};

/** The message with curly quotes straightened but its case kept (names are matched on it). */
export function straightenQuotes(message: string): string {
  return message.normalize("NFKC").replace(/[\u2018\u2019\u02bc`´]/g, "'").replace(/[\u201c\u201d]/g, '"');
}

/**
 * The part of a message that is a request rather than material to work on: quoted text is
 * removed, and so is everything after the colon of an editing task ("Rewrite this: …"), so the
 * words of a text being translated or proofread are not mistaken for a reference to the past.
 */
export function requestPart(text: string): string {
  let s = text.replace(/"[^"]*"/g, " ");
  if (EDITING_TASK.test(s)) s = s.slice(0, s.indexOf(":"));
  return s.replace(/\s+/g, " ").trim();
}
