import { EMBEDDING_DIMENSIONS, type EmbeddingProvider } from "./types";

/**
 * A deterministic embedder that needs no network and no model weights: feature hashing of words,
 * light stems and character trigrams into 1536 signed buckets, L2-normalised. Texts that share
 * words land close together, so hybrid search and the tests behave meaningfully offline; it does
 * not understand synonyms the way a neural model does.
 */
export const localEmbedder: EmbeddingProvider = {
  name: "local",
  model: "local-hash-v1",
  embed: async (texts) => texts.map(embedLocal),
};

const STOP = new Set(
  "a an and are as at be by for from has have i if in is it its of on or so that the this to was we were will with you your".split(" "),
);

export function embedLocal(text: string): number[] {
  const v = new Float64Array(EMBEDDING_DIMENSIONS);
  const words = text.toLowerCase().normalize("NFKD").match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    if (STOP.has(word)) continue;
    add(v, `w:${stem(word)}`, 1);
    if (word.length > 3) {
      const padded = `^${word}$`;
      for (let i = 0; i + 3 <= padded.length; i++) add(v, `t:${padded.slice(i, i + 3)}`, 0.35);
    }
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm === 0) {
    // an empty text still needs a valid (unit) vector
    const out = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
    out[0] = 1;
    return out;
  }
  return Array.from(v, (x) => x / norm);
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("es")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

function add(v: Float64Array, feature: string, weight: number) {
  const h = fnv1a(feature);
  const index = h % EMBEDDING_DIMENSIONS;
  v[index]! += (h & 0x80000000 ? -1 : 1) * weight;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
