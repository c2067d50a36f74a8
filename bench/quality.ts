// Retrieval quality on long real conversations (LoCoMo), recorded every way an integration records
// them, through the API's services (content "Speaker: text", or the words alone with
// LOCOMO_RECORDING=words; a shared image as an attachment with its caption), each into a fresh agent:
//   (a) one turn per call, the turns of a session 20 s apart;
//   (b) one turn per call, every turn of a session with the session's time (an importer, a clock with
//       second resolution, a call logged after it ended);
//   (c) one batch per session (POST /interactions/batch) with conversationId and externalId;
// and every question that has evidence is asked through retrieve with scopes ["interactions"],
// limit 10. Then (d): the same questions through retrieve WITHOUT scopes — the path agents really
// call, where the smart trigger decides — for the agent of (a) once it also holds a few hundred
// unrelated memories (its own and the team's), documents and knowledge entries.
// Turn-level recall@k = share of a question's evidence turns among the top k; MRR = 1 / rank of the
// first evidence turn; each per question category (bench/locomo.ts) and overall. A plain BM25 (k1
// 1.2, b 0.75, no stemming, no context) over the same turns is the baseline. "Answer in context": the
// share of questions whose gold answer (letters and digits compared, case and spacing aside) appears
// in retrieve's assembled `context` — the block an agent pastes into its prompt, 10 items of at most
// 600 characters each. Also measured: how fast each way records turns into the embedded database.
//
// The data is read from ../shared/data/locomo-dev next to the repository, or --data DIR; it is
// benchmark data under a non-commercial licence and is never copied into the repository.
// A quicker look: QUALITY_CONVERSATIONS=N measures the first N conversations only, and
// QUALITY_WAYS=a,d only those ways ((d) asks the agent of (a), so it records (a) too).
import { existsSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite/vector";
import { createAgent } from "@/lib/agents/service";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { setDatabaseForTests } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { wrapPglite } from "@/lib/db/pglite";
import { putDocument } from "@/lib/documents/service";
import { createKnowledge } from "@/lib/knowledge/service";
import { createInteraction, createInteractionBatch } from "@/lib/memories/interaction-service";
import { writeMemory } from "@/lib/memories/service";
import { RANKER, setRankerForBench, type RankerCoefficients } from "@/lib/retrieval/search/conversation-ranker";
import { retrieve } from "@/lib/retrieval/service";
import { flushTermStats } from "@/lib/retrieval/search/term-stats";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { CATEGORIES, dataDir, loadConversations, RECORDING, turnContent, type Conversation } from "./locomo";
import type { BenchRow } from "./measure";

const ADMIN: HqCaller = { type: "hq", userId: null, name: "bench", email: null, role: "admin" };
const SESSION_TURN_GAP_MS = 20_000;
const LIMIT = 10;

// ── the baseline: plain BM25 over the same turns ────────────────────────────────────────────────

const STOP = new Set(
  "a an and are as at be but by did do does for from had has have he her his how i in is it its me my of on or our she so that the their them they this to was we were what when where which who why will with you your".split(
    " ",
  ),
);
const tokens = (s: string) => (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));

function bm25Index(docs: { id: string; text: string }[], k1 = 1.2, b = 0.75) {
  const tfs = docs.map((d) => {
    const m = new Map<string, number>();
    const ts = tokens(d.text);
    for (const t of ts) m.set(t, (m.get(t) ?? 0) + 1);
    return { id: d.id, m, len: ts.length };
  });
  const df = new Map<string, number>();
  for (const d of tfs) for (const t of d.m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = tfs.reduce((s, d) => s + d.len, 0) / Math.max(1, tfs.length);
  const n = tfs.length;
  return (query: string, k: number): string[] => {
    const q = [...new Set(tokens(query))];
    const scored: { id: string; s: number }[] = [];
    for (const d of tfs) {
      let s = 0;
      for (const t of q) {
        const f = d.m.get(t);
        if (!f) continue;
        const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
        s += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.len) / avg));
      }
      if (s > 0) scored.push({ id: d.id, s });
    }
    return scored.sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1)).slice(0, k).map((x) => x.id);
  };
}

// ── metrics ─────────────────────────────────────────────────────────────────────────────────────

interface Score {
  r5: number;
  r10: number;
  mrr: number;
  n: number;
}
const empty = (): Score => ({ r5: 0, r10: 0, mrr: 0, n: 0 });

function add(s: Score, ranked: string[], evidence: string[]) {
  const gold = new Set(evidence);
  const hits = (k: number) => ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
  s.r5 += hits(5);
  s.r10 += hits(10);
  const first = ranked.findIndex((id) => gold.has(id));
  s.mrr += first >= 0 ? 1 / (first + 1) : 0;
  s.n++;
}
const fmt = (s: Score | undefined, k: keyof Omit<Score, "n">) => (s?.n ? (s[k] / s.n).toFixed(3) : "-");

/** Letters and digits only, lower case: the data's answers lose spaces ("Yesteammates on hisvideo game team"). */
const squeeze = (s: string) => s.toLowerCase().normalize("NFKD").replace(/[^\p{L}\p{N}]+/gu, "");
/** Whether the gold answer appears in the assembled context. */
export const answerIn = (context: string, answer: string) => Boolean(squeeze(answer)) && squeeze(context).includes(squeeze(answer));

/** A way's scores: overall and per question category. */
type Scores = Record<string, Score>;
function addTo(s: Scores, category: number, ranked: string[], evidence: string[]) {
  for (const key of ["all", CATEGORIES[category] ?? String(category)]) add((s[key] ??= empty()), ranked, evidence);
}

function percentile(sorted: number[], p: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN;
}

// ── recording ───────────────────────────────────────────────────────────────────────────────────

type Mode = "a" | "b" | "c";
const MODES: { mode: Mode; label: string }[] = [
  { mode: "a", label: "(a) one turn per call, 20 s apart" },
  { mode: "b", label: "(b) one turn per call, the session's time on every turn" },
  { mode: "c", label: "(c) one batch per session, conversationId + externalId" },
];

async function newAgent(name: string): Promise<AgentCaller> {
  const created = (await createAgent(ADMIN, { name, kind: "internal", role: "orchestrator" })).agent;
  return { type: "agent", agentId: created.id, name: created.name, kind: "internal", role: created.role, clientId: null, kbAccess: "read" };
}

/** Records a conversation into the agent as `mode` says; answers interaction id → dia_id and the time it took. */
async function record(mode: Mode, conv: Conversation, caller: AgentCaller) {
  const diaOf = new Map<string, string>();
  const started = performance.now();
  for (const [n, session] of conv.sessions.entries()) {
    const items = session.turns.map((turn, i) => ({
      channel: "chat",
      direction: (turn.speaker === conv.speakerA ? "outbound" : "inbound") as "inbound" | "outbound",
      ...turnContent(turn),
      occurredAt: new Date(session.date.getTime() + (mode === "a" ? i * SESSION_TURN_GAP_MS : 0)).toISOString(),
    }));
    if (mode === "c") {
      const { interactions } = await createInteractionBatch(caller, {
        interactions: items.map((item, i) => ({ ...item, conversationId: `${conv.name}-session-${n + 1}`, externalId: session.turns[i]!.diaId })),
      });
      interactions.forEach((it, i) => diaOf.set(it.id, session.turns[i]!.diaId));
    } else {
      for (const [i, item] of items.entries()) {
        const { interaction } = await createInteraction(caller, item);
        diaOf.set(interaction.id, session.turns[i]!.diaId);
      }
    }
  }
  return { diaOf, ms: performance.now() - started };
}

// ── (d): what else an orchestrator holds ────────────────────────────────────────────────────────

// Unrelated material of a working agent: team operations, clients, tools, procedures. Built from
// parts, so no two are near-duplicates (which a memory write would refuse).
const SUBJECTS = ["the Q3 pricing review", "the onboarding checklist", "the CRM migration", "invoice reminders", "the weekly ops sync", "the dental client's campaign", "the roofing client's leads", "the support inbox", "the booking widget", "the referral program", "the vendor contract", "the analytics dashboard", "the hiring pipeline", "the refund policy", "the newsletter schedule"];
const FACTS = ["moved to Thursdays", "needs sign-off from finance", "is blocked on API access", "goes live after the audit", "was cut to two steps", "uses the shared template", "must cite the source document", "is owned by the ops lead", "runs on the new scheduler", "reports every Monday at 9", "is paused until the budget clears", "was approved with a 10% cap", "waits for the legal review", "keeps a 48-hour response window", "sends a summary to the channel"];
const DETAILS = ["Track it in the ops board.", "Escalate anything older than a week.", "Keep the client informed by email.", "Log the outcome when it closes.", "Check the numbers against last quarter.", "Ask before changing the template.", "Attach the invoice number.", "Note the decision and the reasoning."];

function distractor(i: number) {
  const subject = SUBJECTS[i % SUBJECTS.length]!;
  const fact = FACTS[Math.floor(i / SUBJECTS.length) % FACTS.length]!;
  return { title: `${subject[0]!.toUpperCase()}${subject.slice(1)} ${fact}`, content: `${subject} ${fact}. ${DETAILS[i % DETAILS.length]} (item ${i})` };
}

/** A few hundred unrelated memories (the agent's and the team's) and documents; the knowledge entries once per run. */
async function fillWithDistractors(caller: AgentCaller, teammate: AgentCaller, withKnowledge: boolean) {
  const tiers = [
    { tier: "core", category: "procedure" },
    { tier: "working", category: "project" },
    { tier: "core", category: "client" },
    { tier: "working", category: "commitment" },
  ] as const;
  for (let i = 0; i < 150; i++) {
    const d = distractor(i);
    await writeMemory(caller, "me", { ...tiers[i % tiers.length]!, ...d, confidence: 0.9 });
    await writeMemory(teammate, "me", { ...tiers[(i + 1) % tiers.length]!, ...distractor(i + 150), confidence: 0.9, scope: "team" });
  }
  await putDocument(caller, "me", "soul", { content: "# Orchestrator\nI coordinate the team's client work, keep the ops board current and write every decision down." });
  await putDocument(caller, "me", "working", { content: "- Q3 pricing review: waiting on finance\n- CRM migration: API access requested\n- Weekly ops sync moved to Thursdays" });
  for (let day = 1; day <= 10; day++) {
    await putDocument(caller, "me", "daily", {
      date: `2026-03-${String(day).padStart(2, "0")}`,
      content: `Daily note: ${distractor(day * 7).content} ${distractor(day * 11).content}`,
    });
  }
  const categories = ["procedure", "best-practice", "template", "tool-guide"] as const;
  for (let i = 0; withKnowledge && i < 100; i++) {
    const d = distractor(i + 300);
    await createKnowledge(ADMIN, { title: `${d.title} (KB ${i})`, content: `${d.content}\n\n${distractor(i + 400).content}`, category: categories[i % 4]! });
  }
}

// ── the benchmark ───────────────────────────────────────────────────────────────────────────────

export async function benchQuality(): Promise<BenchRow[]> {
  const dir = dataDir();
  if (!existsSync(dir)) {
    console.log(`quality: no LoCoMo data at ${dir} (pass --data DIR); nothing measured`);
    return [];
  }
  const limitConversations = Number(process.env.QUALITY_CONVERSATIONS) || Infinity;
  const loaded = loadConversations(dir);
  const conversations: Conversation[] = loaded.conversations.slice(0, limitConversations);
  const wanted = new Set((process.env.QUALITY_WAYS ?? "a,b,c,d").split(",").map((w) => w.trim()));
  if (wanted.has("d")) wanted.add("a");
  if (!conversations.length) {
    console.log(`quality: no conversation files in ${dir}; nothing measured`);
    return [];
  }
  // --ranker-loco FILE (npm run bench -- fit-ranker --loco FILE): each conversation ranked by weights
  // fitted without it; else the shipped weights, which were fitted on these very conversations
  const locoAt = process.argv.indexOf("--ranker-loco");
  const heldOut = locoAt >= 0 ? (JSON.parse(readFileSync(process.argv[locoAt + 1]!, "utf8")) as Record<string, RankerCoefficients>) : null;
  console.log(`quality: turns recorded as ${RECORDING === "words" ? "the words alone, the name in speaker (LOCOMO_RECORDING=words)" : '"Speaker: text" (LOCOMO_RECORDING=named)'}`);
  console.log(
    heldOut
      ? "quality: each conversation ranked by the conversation ranker's weights fitted without it (leave one conversation out)"
      : `quality: the shipped conversation ranker (v${RANKER.version}), fitted on the development conversations: figures on them are not held out (use --ranker-loco)`,
  );
  const pg = await PGlite.create("memory://", { extensions: { vector, pg_trgm } });
  const db = wrapPglite(pg);
  await migrate(db);
  setDatabaseForTests(db);
  const turnsTotal = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  const WAYS = ["a", "b", "c", "d", "bm25"] as const;
  type Way = (typeof WAYS)[number];
  const scores: Record<Way, Scores> = { a: {}, b: {}, c: {}, d: {}, bm25: {} };
  /** per way and category: questions whose gold answer appears in retrieve's context */
  const answered: Record<Exclude<Way, "bm25">, Scores> = { a: {}, b: {}, c: {}, d: {} };
  const noteAnswer = (way: Exclude<Way, "bm25">, category: number, context: string, answer: string) => {
    for (const key of ["all", CATEGORIES[category] ?? String(category)]) {
      const s = (answered[way][key] ??= empty());
      s.n++;
      if (answerIn(context, answer)) s.r10++;
    }
  };
  const perConversation: string[][] = [];
  const recordMs: Record<Mode, number> = { a: 0, b: 0, c: 0 };
  const times: number[] = [];
  let unanswered = 0;
  let levelNone = 0;
  const levels: Record<string, number> = {};
  let fallbacks = 0;
  /** (d) questions whose evidence in (a)'s top 10 was pushed out of (d)'s by other scopes */
  let pushedOut = 0;
  try {
    for (const conv of conversations) {
      if (heldOut) {
        const ranker = heldOut[conv.name];
        if (!ranker) throw new Error(`--ranker-loco: no weights fitted without conversation ${conv.name}`);
        setRankerForBench(ranker);
      }
      const row: Record<Way, Scores> = { a: {}, b: {}, c: {}, d: {}, bm25: {} };
      const docs = conv.sessions.flatMap((s) => s.turns.map((t) => ({ id: t.diaId, text: `${t.speaker}: ${t.text}` })));
      const bm25 = bm25Index(docs);
      for (const q of conv.questions) {
        const b = bm25(q.question, LIMIT);
        addTo(row.bm25, q.category, b, q.evidence);
        addTo(scores.bm25, q.category, b, q.evidence);
      }
      const agents: Partial<Record<Mode, { caller: AgentCaller; diaOf: Map<string, string> }>> = {};
      const rankedA = new Map<string, string[]>();
      for (const { mode } of MODES) {
        if (!wanted.has(mode)) continue;
        const caller = await newAgent(`Quality ${conv.name} ${mode}`);
        const { diaOf, ms } = await record(mode, conv, caller);
        recordMs[mode] += ms;
        agents[mode] = { caller, diaOf };
        process.stderr.write(`quality: ${conv.name} (${mode}) recorded in ${(ms / 1000).toFixed(1)} s\n`);
        // what the server's batch job does a moment after the writes
        await flushTermStats();
        for (const q of conv.questions) {
          const start = performance.now();
          const r = await retrieve(caller, { message: q.question, scopes: ["interactions"], limit: LIMIT });
          if (mode === "a") {
            times.push(performance.now() - start);
            if (!r.items.length) unanswered++;
          }
          const ranked = r.items.map((it) => diaOf.get(it.id) ?? "");
          if (mode === "a") rankedA.set(q.question, ranked);
          addTo(row[mode], q.category, ranked, q.evidence);
          addTo(scores[mode], q.category, ranked, q.evidence);
          noteAnswer(mode, q.category, r.context, q.answer);
        }
      }
      const conversationRow = () => [conv.name, String(docs.length), String(conv.questions.length), ...WAYS.map((k) => fmt(row[k].all, "r10"))];
      // (d): the agent of (a), its memory filled with everything else an orchestrator holds
      if (!wanted.has("d")) {
        perConversation.push(conversationRow());
        continue;
      }
      const { caller, diaOf } = agents.a!;
      const filling = performance.now();
      await fillWithDistractors(caller, await newAgent(`Quality ${conv.name} teammate`), conv === conversations[0]);
      await flushTermStats();
      process.stderr.write(`quality: ${conv.name} (d) distractors written in ${((performance.now() - filling) / 1000).toFixed(1)} s\n`);
      for (const q of conv.questions) {
        const r = await retrieve(caller, { message: q.question, limit: LIMIT });
        if (r.level === "none") levelNone++;
        levels[r.level] = (levels[r.level] ?? 0) + 1;
        if ("fallback" in r && r.fallback) fallbacks++;
        const ranked = r.items.map((it) => (it.source === "interactions" ? (diaOf.get(it.id) ?? "") : `${it.source}:${it.id}`));
        const inTop = (list: string[]) => list.filter((id) => q.evidence.includes(id)).length;
        if (r.level !== "none" && inTop(ranked) < inTop(rankedA.get(q.question) ?? [])) pushedOut++;
        addTo(row.d, q.category, ranked, q.evidence);
        addTo(scores.d, q.category, ranked, q.evidence);
        noteAnswer("d", q.category, r.context, q.answer);
      }
      perConversation.push(conversationRow());
      process.stderr.write(
        `quality: ${conv.name} done (${docs.length} turns, ${conv.questions.length} questions): r@10 ` +
          WAYS.map((k) => `${k} ${fmt(row[k].all, "r10")}`).join(", ") + "\n",
      );
    }
    const n = scores.a.all?.n ?? 0;
    const table = (header: string[], lines: string[][]) => {
      const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
      const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ");
      return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(line)].join("\n");
    };
    const LABELS: Record<Way, string> = {
      ...(Object.fromEntries(MODES.map(({ mode, label }) => [mode, label])) as Record<Mode, string>),
      d: "(d) retrieve without scopes, agent of (a) + 300 memories, 12 documents, 100 KB entries",
      bm25: "BM25 baseline over the same turns",
    };
    const ways = WAYS.filter((w) => w === "bm25" || wanted.has(w)).map((w) => [LABELS[w], fmt(scores[w].all, "r5"), fmt(scores[w].all, "r10"), fmt(scores[w].all, "mrr")]);
    const q = loaded.quirks;
    console.log(
      `LoCoMo: ${conversations.length} conversations, ${turnsTotal} turns, ${n} questions with evidence, limit ${LIMIT} ` +
        `(data: ${q.normalised} evidence ids read as the turn they name, ${q.split} entries of several ids split, ` +
        `${q.dropped} ids that name no turn dropped, ${q.skipped} questions without evidence not asked)`,
    );
    console.log(table(["recorded / asked", "r@5", "r@10", "MRR"], ways));
    const categories = ["all", ...Object.values(CATEGORIES)];
    const shown = WAYS.filter((w) => w === "bm25" || wanted.has(w));
    console.log(
      "\n" +
        table(
          ["recall@10 by category", "questions", ...shown.map((w) => (w === "bm25" ? "BM25" : `(${w})`))],
          categories.map((c) => [c, String(scores.a[c]?.n ?? scores.bm25[c]?.n ?? 0), ...shown.map((w) => fmt(scores[w][c], "r10"))]),
        ),
    );
    const askedWays = (["a", "b", "c", "d"] as const).filter((w) => wanted.has(w));
    console.log(
      "\n" +
        table(
          ["gold answer in retrieve's context", "questions", ...askedWays.map((w) => `(${w})`)],
          categories.map((c) => [c, String(answered.a[c]?.n ?? 0), ...askedWays.map((w) => fmt(answered[w][c], "r10"))]),
        ),
    );
    console.log("\n" + table(["conversation", "turns", "questions", ...WAYS.map((w) => `${w === "bm25" ? "bm25" : `(${w})`} r@10`)], perConversation));
    const r10 = (k: Way) => (scores[k].all?.n ? scores[k].all!.r10 / scores[k].all!.n : NaN);
    const pts = (k: Way) => (Number.isNaN(r10(k)) ? "-" : ((r10(k) - r10("a")) * 100).toFixed(1));
    console.log(
      `(b) − (a) ${pts("b")} points, (c) − (a) ${pts("c")}, (d) − (a) ${pts("d")}; ` +
        `(a) − BM25 ${((r10("a") - r10("bm25")) * 100).toFixed(1)} points; ` +
        `${unanswered} questions answered with nothing in (a) (relevance floor); the trigger said none to ${levelNone} in (d) ` +
        `(levels ${JSON.stringify(levels)}, ${fallbacks} fell back to the shared memory); in ${pushedOut} questions of (d) ` +
        `fewer evidence turns reached the top ${LIMIT} than in (a) although the trigger fetched\n`,
    );
  } finally {
    // the accesses retrieve counted are folded into this database, not left for a timer that would
    // open the app's own one after it
    await flushAccessCounts().catch(() => {});
    setRankerForBench(null);
    setDatabaseForTests(undefined);
    await db.close();
  }
  times.sort((a, b) => a - b);
  const rate = (ms: number) => `${((turnsTotal / ms) * 1000).toFixed(0)} turns/s`;
  return [
    {
      benchmark: "retrieve in-process, interactions, LoCoMo",
      n: times.length,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      notes: `${conversations.length} conversations, ${turnsTotal} turns, limit ${LIMIT}`,
    },
    ...MODES.filter(({ mode }) => wanted.has(mode)).map(({ mode, label }) => ({
      benchmark: `record LoCoMo turns ${label.slice(0, 3)}, embedded`,
      n: turnsTotal,
      p50: (recordMs[mode] / turnsTotal),
      p95: NaN,
      notes: `${rate(recordMs[mode])} (${label.slice(4)}); p50 column: ms per turn on average`,
    })),
  ];
}
