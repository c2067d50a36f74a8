// `npm run bench -- fit-ranker [--write]`: fits the conversation ranker's weights
// (lib/retrieval/search/conversation-ranker.ts) on the LoCoMo development conversations and says how
// well they generalise: each conversation is ranked with weights fitted on the others only (leave one
// conversation out), per question category, beside the search's own order and the weights in use.
// With --write, the weights fitted on every conversation replace conversation-ranker.json (its
// version one higher); with --loco FILE, the weights fitted without each conversation go to FILE, for
// the quality bench (--ranker-loco FILE) to rank each conversation without having seen it. The conversations are read where they lie (--data DIR); nothing of them is
// written into the repository but the weights.
//
// The model: a linear score over the turn's features, fitted pairwise (RankNet): for every question,
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
import { messageSignals, RANKER, scoreFeatures, TURN_FEATURES, turnFeatures, type RankerCoefficients } from "@/lib/retrieval/search/conversation-ranker";
import { RANKER_POOL } from "@/lib/retrieval/search/search-scopes";
import { searchInteractions } from "@/lib/retrieval/search/queries";
import { flushTermStats } from "@/lib/retrieval/search/term-stats";
import { CATEGORIES, dataDir, loadConversations, recallAt, turnContent, type Conversation } from "./locomo";
import type { BenchRow } from "./measure";

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

/** Records each conversation (a batch per session, thread ids, captions as attachments) and collects every question's candidates. */
async function collect(conversations: Conversation[]): Promise<Example[]> {
  const examples: Example[] = [];
  const model = getEmbeddingProvider().model;
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
    await flushTermStats();
    for (const q of conv.questions) {
      const vectors = await tryEmbed([q.question]);
      const embedding = vectors ? toVectorLiteral(vectors[0]!) : null;
      const hits = await asCaller(caller, (tx) =>
        searchInteractions(tx, { message: q.question, embedding, model: embedding ? model : null, limit: RANKER_POOL, agentId: caller.agentId, clientId: null }),
      );
      const m = messageSignals(q.question);
      const ids = hits.map((h) => diaOf.get(h.id) ?? "");
      examples.push({
        conversation: conv.name,
        category: q.category,
        evidence: q.evidence,
        ids,
        features: hits.map((h) => turnFeatures(h, m)),
        labels: ids.map((id) => q.evidence.includes(id)),
      });
    }
    process.stderr.write(`fit-ranker: ${conv.name} recorded and asked (${conv.questions.length} questions)\n`);
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
  let examples: Example[];
  try {
    examples = await collect(conversations);
  } finally {
    setDatabaseForTests(undefined);
    await db.close();
  }
  // leave one conversation out: each conversation ranked by weights fitted on the others
  const held = new Map<string, RankerCoefficients>();
  for (const conv of conversations) {
    held.set(conv.name, asCoefficients(fitPairwise(examples.filter((e) => e.conversation !== conv.name)), 0));
  }
  const rows: [string, Record<string, { s: number; n: number }>][] = [
    [`the search's order (candidates of public.search_interactions)`, recallByCategory(examples, (ex) => ex.ids)],
    [`weights in use (conversation-ranker.json v${RANKER.version})`, recallByCategory(examples, (ex) => byScore(ex, RANKER))],
    ["fitted, leave one conversation out", recallByCategory(examples, (ex) => byScore(ex, held.get(ex.conversation)!))],
  ];
  const keys = ["all", ...Object.values(CATEGORIES)];
  const header = ["recall@10", ...keys.map((k) => `${k} (${rows[0]![1][k]?.n ?? 0})`)];
  const lines = rows.map(([label, s]) => [label, ...keys.map((k) => (s[k] ? (s[k].s / s[k].n).toFixed(3) : "-"))]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ");
  console.log(`fit-ranker: ${conversations.length} conversations, ${examples.length} questions, ${RANKER_POOL} candidates each, top ${LIMIT}`);
  console.log([line(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(line)].join("\n"));
  const all = asCoefficients(fitPairwise(examples), RANKER.version + 1);
  console.log(`weights fitted on all ${conversations.length}: ${JSON.stringify(all.weights)}`);
  for (const [name, c] of held) console.log(`  without ${name}: ${JSON.stringify(c.weights)}`);
  // --loco FILE: the weights fitted without each conversation, for `npm run bench -- quality --ranker-loco FILE`
  const locoAt = process.argv.indexOf("--loco");
  if (locoAt >= 0 && process.argv[locoAt + 1]) {
    writeFileSync(path.resolve(process.argv[locoAt + 1]!), JSON.stringify(Object.fromEntries(held), null, 2));
    console.log(`wrote the leave-one-conversation-out weights to ${process.argv[locoAt + 1]}`);
  }
  if (process.argv.includes("--write")) {
    const previous = JSON.parse(readFileSync(COEFFICIENTS_FILE, "utf8")) as RankerCoefficients;
    writeFileSync(COEFFICIENTS_FILE, `${JSON.stringify({ ...all, version: previous.version + 1 }, null, 2)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), COEFFICIENTS_FILE)} (version ${previous.version + 1})`);
  }
  return [];
}
