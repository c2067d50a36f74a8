/**
 * What a search's words look like in the text it found: full-text search matches word stems
 * ("refunds" finds "refunded"), so each word is marked from its stem — the word less a plural or
 * verb ending — to the end of the word it starts.
 */
const ENDINGS = /(?:ing|ed|es|s|ly)$/;

export function searchStems(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const stems = words.filter((w) => w.length >= 2).map((w) => (w.length > 4 ? w.replace(ENDINGS, "") : w));
  // longest first, so a longer stem wins where two start at the same letter
  return [...new Set(stems)].sort((a, b) => b.length - a.length);
}

export interface TextPart {
  text: string;
  hit: boolean;
}

/** `text` cut into the parts a search's words match (`hit`) and the rest, in order. */
export function highlightParts(text: string, query: string): TextPart[] {
  const stems = searchStems(query);
  if (!stems.length) return [{ text, hit: false }];
  const escaped = stems.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join("|")})[\\p{L}\\p{N}]*`, "giu");
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), hit: false });
    parts.push({ text: m[0], hit: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), hit: false });
  return parts;
}
