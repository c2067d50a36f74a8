// `npm run bench -- fit-ranker [--write] [--loco FILE]`: fits the conversation ranker
// (lib/retrieval/search/conversation-ranker.ts) — its question adapter and its weights — on the LoCoMo
// development conversations and says how well they generalise: each conversation is ranked by an
// adapter and weights fitted on the others only (leave one conversation out), per question category,
// beside the search's own order and the weights fitted without the adapter. With --write, the adapter
// fitted on every conversation and the weights fitted on every conversation's candidates replace
// conversation-ranker.json (its version one higher); with --loco FILE, the adapter and weights fitted
// without each conversation go to FILE, for the quality bench (--ranker-loco FILE) to rank each
// conversation without having seen it. The conversations are read where they lie (--data DIR);
// nothing of them is written into the repository but the coefficients.
//
// The adapter (bench/question-adapter.ts) maps the question's vector before the search compares it
// with the turns'; it changes the candidates and their similarity signals, so the weights are fitted
// on candidates found with adapters that never saw the candidates' conversation (each conversation's
// questions searched with the adapter fitted without it; for the left-out figures, without it and
// without the conversation ranked).
//
// The weights: a linear score over the turn's features, fitted pairwise (RankNet): for every question,
// every pair of an evidence turn and another candidate should be ordered so; logistic loss on the
// difference of their scores, each question weighing the same, an L2 penalty, Newton's method.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite/vector";
import { createAgent } from "@/lib/agents/service";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { asCaller, setDatabaseForTests } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { wrapPglite } from "@/lib/db/pglite";
import { getEmbeddingProvider, toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { createInteractionBatch } from "@/lib/memories/interaction-service";
import { searchableText } from "@/lib/memories/attachments";
import {
  conversationQueryVector,
  messageSignals,
  RANKER,
  scoreFeatures,
  TURN_FEATURES,
  turnFeatures,
  type QuestionAdapter,
  type RankerCoefficients,
} from "@/lib/retrieval/search/conversation-ranker";
import { RANKER_POOL } from "@/lib/retrieval/search/search-scopes";
import { searchInteractions } from "@/lib/retrieval/search/queries";
import { flushTermStats } from "@/lib/retrieval/search/term-stats";
import { CATEGORIES, dataDir, loadConversations, recallAt, turnContent, type Conversation } from "./locomo";
import type { BenchRow } from "./measure";
import { fitQuestionAdapter, matrixRows, type AdapterConversation } from "./question-adapter";

const ADMIN: HqCaller = { type: "hq", userId: null, name: "bench", email: null, role: "admin" };
const COEFFICIENTS_FILE = path.join(process.cwd(), "lib/retrieval/search/conversation-ranker.json");
const LIMIT = 10;
const L2 = 1;

/** One question's candidates: their features, whether each is an evidence turn, and the search's order. */
interface Example {
  conversation: string;
  category: number;
  evidence: string[];
  ids: string[];
  features: number[][];
  labels: boolean[];
}

/** A conversation recorded for the fit: who recorded it, its turns' ids and vectors, its questions' vectors. */
interface Recorded {
  conv: Conversation;
  caller: AgentCaller;
  /** the turn's LoCoMo id (D1:3) by interaction id */
  diaOf: Map<string, string>;
  vectors: AdapterConversation;
  questionVectors: number[][];
}

/** Records each conversation (a batch per session, thread ids, captions as attachments) and embeds its turns and questions. */
async function record(conversations: Conversation[]): Promise<Recorded[]> {
  const out: Recorded[] = [];
  for (const conv of conversations) {
    const created = (await createAgent(ADMIN, { name: `Ranker ${conv.name}`, kind: "internal", role: "orchestrator" })).agent;
    const caller: AgentCaller = { type: "agent", agentId: created.id, name: created.name, kind: "internal", role: created.role, clientId: null, kbAccess: "read" };
    const diaOf = new Map<string, string>();
    for (const [n, session] of conv.sessions.entries()) {
      const { interactions } = await createInteractionBatch(caller, {
        interactions: session.turns.map((turn) => ({
          channel: "chat",
          direction: turn.speaker === conv.speakerA ? ("outbound" as const) : ("inbound" as const),
          ...turnContent(turn),
          occurredAt: session.date.toISOString(),
          conversationId: `${conv.name}-session-${n + 1}`,
          externalId: turn.diaId,
        })),
      });
      interactions.forEach((it, i) => diaOf.set(it.id, session.turns[i]!.diaId));
    }
    // the vectors the search compares: each turn's text with its captions, as recorded
    const turns = conv.sessions.flatMap((s) => s.turns);
    const turnVectors = (await tryEmbed(turns.map((t) => { const c = turnContent(t); return searchableText(c.speaker, c.content, c.attachments); }))) ?? [];
    const questionVectors = (await tryEmbed(conv.questions.map((q) => q.question))) ?? [];
    const dims = turnVectors[0]?.length ?? 0;
    const at = new Map(turns.map((t, i) => [t.diaId, i]));
    out.push({
      conv,
      caller,
      diaOf,
      questionVectors,
      vectors: {
        dims,
        turns: Float64Array.from(turnVectors.flat()),
        questions: Float64Array.from(questionVectors.flat()),
        evidence: conv.questions.map((q) => [...new Set(q.evidence.map((id) => at.get(id)).filter((i): i is number => i !== undefined))]),
      },
    });
  }
  await flushTermStats();
  return out;
}

/** The adapter of a fitted matrix, in the coefficients file's form. */
const adapterOf = (m: Float64Array, dims: number): QuestionAdapter => ({ model: getEmbeddingProvider().model, dims, matrix: matrixRows(m, dims) });

/** Every question of a recorded conversation searched with the message's vector mapped by `adapter`: its candidates. */
async function collect(rec: Recorded, adapter: QuestionAdapter | null): Promise<Example[]> {
  const model = getEmbeddingProvider().model;
  const examples: Example[] = [];
  for (const [qi, q] of rec.conv.questions.entries()) {
    const vector = rec.questionVectors[qi];
    const embedding = vector ? toVectorLiteral(conversationQueryVector(vector, model, adapter)) : null;
    const hits = await asCaller(rec.caller, (tx) =>
      searchInteractions(tx, {
        message: q.question,
        embedding,
        model: embedding ? model : null,
        limit: RANKER_POOL,
        agentId: rec.caller.agentId,
        clientId: null,
      }),
    );
    const m = messageSignals(q.question, hits.map((h) => h.speaker));
    const ids = hits.map((h) => rec.diaOf.get(h.id) ?? "");
    examples.push({
      conversation: rec.conv.name,
      category: q.category,
      evidence: q.evidence,
      ids,
      features: hits.map((h) => turnFeatures(h, m)),
      labels: ids.map((id) => q.evidence.includes(id)),
    });
  }
  return examples;
}

/** Solves A x = b (A symmetric positive definite, small) by Gaussian elimination. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/** Pairwise logistic regression (see the header): the weights, in TURN_FEATURES order. */
export function fitPairwise(examples: readonly Pick<Example, "features" | "labels">[], l2 = L2, iterations = 50): number[] {
  const dims = TURN_FEATURES.length;
  // every (evidence, other) pair's feature difference, each question's pairs weighing 1 together
  const diffs: { d: number[]; w: number }[] = [];
  let questions = 0;
  for (const ex of examples) {
    const pos = ex.features.filter((_, i) => ex.labels[i]);
    const neg = ex.features.filter((_, i) => !ex.labels[i]);
    if (!pos.length || !neg.length) continue;
    questions++;
    const w = 1 / (pos.length * neg.length);
    for (const p of pos) for (const n of neg) diffs.push({ d: p.map((x, k) => x - n[k]!), w });
  }
  const beta = new Array<number>(dims).fill(0);
  const penalty = l2 / Math.max(1, questions);
  for (let it = 0; it < iterations; it++) {
    const grad = beta.map((b) => penalty * b);
    const hess = beta.map((_, i) => beta.map((__, j) => (i === j ? penalty : 0)));
    for (const { d, w } of diffs) {
      const z = d.reduce((s, x, k) => s + x * beta[k]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let i = 0; i < dims; i++) {
        grad[i]! -= w * (1 - p) * d[i]!;
        for (let j = 0; j < dims; j++) hess[i]![j]! += w * p * (1 - p) * d[i]! * d[j]!;
      }
    }
    const step = solve(hess, grad);
    step.forEach((s, k) => (beta[k]! -= s));
    if (Math.max(...step.map(Math.abs)) < 1e-7) break;
  }
  return beta;
}

const asCoefficients = (beta: number[], version: number): RankerCoefficients => ({
  version,
  features: [...TURN_FEATURES],
  weights: Object.fromEntries(TURN_FEATURES.map((f, i) => [f, Math.round(beta[i]! * 1000) / 1000])),
});

/** recall@10 per category (and overall) of each example ranked by `rank`. */
function recallByCategory(examples: Example[], rank: (ex: Example) => string[]) {
  const sums: Record<string, { s: number; n: number }> = {};
  for (const ex of examples) {
    const r = recallAt(rank(ex), ex.evidence, LIMIT);
    for (const key of [CATEGORIES[ex.category] ?? String(ex.category), "all"]) {
      sums[key] ??= { s: 0, n: 0 };
      sums[key].s += r;
      sums[key].n++;
    }
  }
  return sums;
}

/** Every question with all its conversation's turns ordered by their vectors' cosine to the question's, mapped by `adapter`. */
function byVectors(rec: Recorded, adapter: QuestionAdapter | null): Example[] {
  const { dims, turns } = rec.vectors;
  const ids = rec.conv.sessions.flatMap((s) => s.turns.map((t) => t.diaId));
  const model = getEmbeddingProvider().model;
  return rec.conv.questions.map((q, qi) => {
    const v = rec.questionVectors[qi] ?? [];
    const m = conversationQueryVector(v, model, adapter);
    const cos = ids.map((_, t) => m.reduce((sum, x, j) => sum + x * turns[t * dims + j]!, 0));
    const order = ids.map((_, i) => i).sort((a, b) => cos[b]! - cos[a]! || a - b);
    return { conversation: rec.conv.name, category: q.category, evidence: q.evidence, ids: order.map((i) => ids[i]!), features: [], labels: [] };
  });
}

/** The coefficients file: the weights as before, the adapter's matrix one row a line. */
function coefficientsText(c: RankerCoefficients): string {
  const { adapter, ...rest } = c;
  const head = JSON.stringify(rest, null, 2).replace(/\n}$/, "");
  if (!adapter) return `${head}\n}\n`;
  const rows = adapter.matrix.map((row) => `      ${JSON.stringify(row)}`).join(",\n");
  return `${head},\n  "adapter": {\n    "model": ${JSON.stringify(adapter.model)},\n    "dims": ${adapter.dims},\n    "matrix": [\n${rows}\n    ]\n  }\n}\n`;
}

const byScore = (ex: Example, ranker: RankerCoefficients) =>
  ex.features
    .map((f, i) => ({ id: ex.ids[i]!, s: scoreFeatures(f, ranker), i }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.id);

export async function benchFitRanker(): Promise<BenchRow[]> {
  const { conversations } = loadConversations(dataDir());
  if (!conversations.length) {
    console.log(`fit-ranker: no LoCoMo conversations at ${dataDir()} (pass --data DIR); nothing fitted`);
    return [];
  }
  const pg = await PGlite.create("memory://", { extensions: { vector, pg_trgm } });
  const db = wrapPglite(pg);
  await migrate(db);
  setDatabaseForTests(db);
  const dims = () => recorded[0]?.vectors.dims ?? 0;
  let recorded: Recorded[] = [];
  /** the questions as the search answers them with the message's vector as it is */
  const plain: Example[] = [];
  /** each conversation's questions with the adapter fitted without it (what the shipped weights are fitted on) */
  const adapted: Example[] = [];
  /** leave one conversation out: the weights and the adapter each conversation is ranked by, fitted without it */
  const held = new Map<string, RankerCoefficients>();
  let adapterAll: QuestionAdapter | undefined;
  /** every turn ordered by its vector's cosine alone: the message's vector as it is, and adapted */
  const vectorsPlain: Example[] = [];
  const vectorsAdapted: Example[] = [];
  try {
    recorded = await record(conversations);
    const started = performance.now();
    const fitted = new Map<string, QuestionAdapter>();
    /** the adapter fitted on every conversation but `skip` (memoised: the nested fits share them) */
    const adapterWithout = (...skip: string[]) => {
      const key = [...skip].sort().join("|");
      let adapter = fitted.get(key);
      if (!adapter) {
        adapter = adapterOf(fitQuestionAdapter(recorded.filter((r) => !skip.includes(r.conv.name)).map((r) => r.vectors)), dims());
        fitted.set(key, adapter);
        process.stderr.write(`fit-ranker: adapter without ${skip.join(", ") || "none"} fitted (${Math.round((performance.now() - started) / 1000)} s)\n`);
      }
      return adapter;
    };
    for (const rec of recorded) {
      plain.push(...(await collect(rec, null)));
      adapted.push(...(await collect(rec, adapterWithout(rec.conv.name))));
      process.stderr.write(`fit-ranker: ${rec.conv.name} asked (${rec.conv.questions.length} questions)\n`);
    }
    // nested: the weights for conversation `out` are fitted on the others' questions searched with
    // adapters that saw neither `out` nor the questions' own conversation
    for (const out of recorded) {
      const training: Example[] = [];
      for (const rec of recorded) if (rec !== out) training.push(...(await collect(rec, adapterWithout(out.conv.name, rec.conv.name))));
      held.set(out.conv.name, { ...asCoefficients(fitPairwise(training), 0), adapter: adapterWithout(out.conv.name) });
      process.stderr.write(`fit-ranker: weights without ${out.conv.name} fitted\n`);
    }
    adapterAll = adapterWithout();
    for (const rec of recorded) {
      vectorsPlain.push(...byVectors(rec, null));
      vectorsAdapted.push(...byVectors(rec, adapterWithout(rec.conv.name)));
    }
  } finally {
    setDatabaseForTests(undefined);
    await db.close();
  }
  const plainHeld = new Map(conversations.map((c) => [c.name, asCoefficients(fitPairwise(plain.filter((e) => e.conversation !== c.name)), 0)]));
  const rows: [string, Record<string, { s: number; n: number }>][] = [
    ["every turn by its vector's cosine alone, the message's as it is", recallByCategory(vectorsPlain, (ex) => ex.ids)],
    ["every turn by its vector's cosine alone, adapted (fitted without)", recallByCategory(vectorsAdapted, (ex) => ex.ids)],
    [`the search's order, the message's vector as it is`, recallByCategory(plain, (ex) => ex.ids)],
    [`the search's order, the adapter fitted without the conversation`, recallByCategory(adapted, (ex) => ex.ids)],
    ["weights fitted without the conversation, no adapter", recallByCategory(plain, (ex) => byScore(ex, plainHeld.get(ex.conversation)!))],
    ["weights and adapter fitted without the conversation", recallByCategory(adapted, (ex) => byScore(ex, held.get(ex.conversation)!))],
  ];
  const keys = ["all", ...Object.values(CATEGORIES)];
  const header = ["recall@10", ...keys.map((k) => `${k} (${rows[0]![1][k]?.n ?? 0})`)];
  const lines = rows.map(([label, s]) => [label, ...keys.map((k) => (s[k] ? (s[k].s / s[k].n).toFixed(3) : "-"))]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ");
  console.log(`fit-ranker: ${conversations.length} conversations, ${plain.length} questions, ${RANKER_POOL} candidates each, top ${LIMIT}`);
  console.log([line(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(line)].join("\n"));
  const all = asCoefficients(fitPairwise(adapted), RANKER.version + 1);
  const nearest = (examples: Example[]) => (examples.reduce((s, ex) => s + recallAt(ex.ids, ex.evidence, 40), 0) / Math.max(1, examples.length)).toFixed(3);
  console.log(`evidence among the 40 nearest turns (the search's vector candidates): ${nearest(vectorsPlain)} as it is, ${nearest(vectorsAdapted)} adapted`);
  console.log(`weights fitted on all ${conversations.length}: ${JSON.stringify(all.weights)}`);
  for (const [name, c] of held) console.log(`  without ${name}: ${JSON.stringify(c.weights)}`);
  const ranker = (version: number): RankerCoefficients => ({ ...all, version, adapter: adapterAll });
  // --loco FILE: the weights fitted without each conversation, for `npm run bench -- quality --ranker-loco FILE`
  const locoAt = process.argv.indexOf("--loco");
  if (locoAt >= 0 && process.argv[locoAt + 1]) {
    writeFileSync(path.resolve(process.argv[locoAt + 1]!), JSON.stringify(Object.fromEntries(held)));
    console.log(`wrote the leave-one-conversation-out weights to ${process.argv[locoAt + 1]}`);
  }
  if (process.argv.includes("--write")) {
    const previous = JSON.parse(readFileSync(COEFFICIENTS_FILE, "utf8")) as RankerCoefficients;
    writeFileSync(COEFFICIENTS_FILE, coefficientsText(ranker(previous.version + 1)));
    console.log(`wrote ${path.relative(process.cwd(), COEFFICIENTS_FILE)} (version ${previous.version + 1})`);
  }
  return [];
}
