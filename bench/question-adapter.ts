// Fits the conversation ranker's question adapter (lib/retrieval/search/conversation-ranker.ts,
// `QuestionAdapter`): a dims × dims matrix M such that a question's vector q, mapped (q M) and
// compared with every turn of its conversation, is closest to the turns that answer it.
//
// The loss: for each question, the softmax over its conversation's turns of TEMPERATURE · (q M) · t
// against the evidence turns (each weighing the same), averaged over the questions, plus an L2
// penalty on M − I (towards comparing vectors as they are). Full-batch Adam from M = I: the same
// data gives the same matrix. Vectors are unit length, as the embedder returns them.

/** One conversation's vectors: its turns', its questions' and each question's evidence turns (indexes). */
export interface AdapterConversation {
  dims: number;
  turns: Float64Array; // turns × dims, row-major
  questions: Float64Array; // questions × dims, row-major
  evidence: number[][];
}

export interface AdapterFit {
  temperature: number;
  l2: number;
  iterations: number;
  rate: number;
}

/** Measured on the development conversations, each left out in turn (recall@10 of turns ranked by the mapped question's cosine). */
export const ADAPTER_FIT: AdapterFit = { temperature: 20, l2: 0.1, iterations: 100, rate: 0.1 };

/** The fitted matrix (row-major dims × dims). */
export function fitQuestionAdapter(conversations: readonly AdapterConversation[], fit: AdapterFit = ADAPTER_FIT): Float64Array {
  const dims = conversations[0]?.dims ?? 0;
  const a = new Float64Array(dims * dims); // M − I
  const m1 = new Float64Array(dims * dims);
  const m2 = new Float64Array(dims * dims);
  const questions = conversations.reduce((n, c) => n + c.evidence.filter((e) => e.length).length, 0);
  if (!dims || !questions) return identity(dims);
  for (let it = 1; it <= fit.iterations; it++) {
    const grad = new Float64Array(dims * dims);
    const m = identity(dims);
    for (let k = 0; k < m.length; k++) m[k]! += a[k]!;
    for (const conv of conversations) accumulate(conv, m, fit.temperature, grad);
    for (let k = 0; k < grad.length; k++) {
      const g = grad[k]! / questions + fit.l2 * a[k]!;
      m1[k] = 0.9 * m1[k]! + 0.1 * g;
      m2[k] = 0.999 * m2[k]! + 0.001 * g * g;
      a[k]! -= (fit.rate * (m1[k]! / (1 - 0.9 ** it))) / (Math.sqrt(m2[k]! / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  const out = identity(dims);
  for (let k = 0; k < out.length; k++) out[k]! += a[k]!;
  return out;
}

function identity(dims: number): Float64Array {
  const m = new Float64Array(dims * dims);
  for (let i = 0; i < dims; i++) m[i * dims + i] = 1;
  return m;
}

/** Questions scored together: each turn's vector is read once for the block (the loops are memory-bound). */
const BLOCK = 32;

/** Adds one conversation's gradient of the summed loss with respect to M to `grad`. */
function accumulate(conv: AdapterConversation, m: Float64Array, temperature: number, grad: Float64Array): void {
  const { dims, turns, questions, evidence } = conv;
  const n = turns.length / dims;
  const asked = evidence.flatMap((gold, qi) => (gold.length ? [qi] : []));
  const mapped = new Float64Array(BLOCK * dims);
  const probs = new Float64Array(BLOCK * n);
  const back = new Float64Array(BLOCK * dims); // per question: Σ_t (p_t − y_t) t
  for (let start = 0; start < asked.length; start += BLOCK) {
    const block = asked.slice(start, start + BLOCK);
    const b = block.length;
    mapped.fill(0);
    back.fill(0);
    // the block's questions mapped: q M
    for (let k = 0; k < b; k++) {
      const qo = block[k]! * dims;
      const mo = k * dims;
      for (let i = 0; i < dims; i++) {
        const x = questions[qo + i]!;
        if (x === 0) continue;
        const row = i * dims;
        for (let j = 0; j < dims; j++) mapped[mo + j]! += x * m[row + j]!;
      }
    }
    // temperature · (q M) · t for every turn, each turn read once for the block
    for (let t = 0; t < n; t++) {
      const to = t * dims;
      for (let k = 0; k < b; k++) {
        const mo = k * dims;
        // four sums: independent additions pipeline
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        let j = 0;
        for (; j + 3 < dims; j += 4) {
          s0 += mapped[mo + j]! * turns[to + j]!;
          s1 += mapped[mo + j + 1]! * turns[to + j + 1]!;
          s2 += mapped[mo + j + 2]! * turns[to + j + 2]!;
          s3 += mapped[mo + j + 3]! * turns[to + j + 3]!;
        }
        for (; j < dims; j++) s0 += mapped[mo + j]! * turns[to + j]!;
        probs[k * n + t] = temperature * (s0 + s1 + s2 + s3);
      }
    }
    // softmax per question, minus its evidence's share
    for (let k = 0; k < b; k++) {
      const po = k * n;
      let top = -Infinity;
      for (let t = 0; t < n; t++) if (probs[po + t]! > top) top = probs[po + t]!;
      let sum = 0;
      for (let t = 0; t < n; t++) sum += probs[po + t] = Math.exp(probs[po + t]! - top);
      for (let t = 0; t < n; t++) probs[po + t]! /= sum;
      const gold = evidence[block[k]!]!;
      for (const t of gold) probs[po + t]! -= 1 / gold.length;
    }
    for (let t = 0; t < n; t++) {
      const to = t * dims;
      for (let k = 0; k < b; k++) {
        const r = probs[k * n + t]!;
        const bo = k * dims;
        for (let j = 0; j < dims; j++) back[bo + j]! += r * turns[to + j]!;
      }
    }
    // d loss / d M[i][j] = temperature · q[i] · back[j]
    for (let k = 0; k < b; k++) {
      const qo = block[k]! * dims;
      const bo = k * dims;
      for (let i = 0; i < dims; i++) {
        const x = temperature * questions[qo + i]!;
        if (x === 0) continue;
        const row = i * dims;
        for (let j = 0; j < dims; j++) grad[row + j]! += x * back[bo + j]!;
      }
    }
  }
}

/** The matrix as the coefficients file keeps it: rows of numbers rounded to 4 decimals. */
export function matrixRows(m: Float64Array, dims: number): number[][] {
  return Array.from({ length: dims }, (_, i) => Array.from(m.subarray(i * dims, (i + 1) * dims), (x) => Math.round(x * 1e4) / 1e4));
}
