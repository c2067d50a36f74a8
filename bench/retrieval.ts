// Retrieval: the smart trigger's throughput, POST /retrieve at 1k and 10k memories and
// interactions per agent over a 10k-entry knowledge base (in process, and over HTTP against the
// production server, server.mjs, also call by call alternating with in process), and context assembly. Targets on the embedded database with the local embedder:
// retrieve p95 ≤ 25 ms in process and ≤ 50 ms over HTTP at 10k items, context ≤ 100 ms.
//
// The corpus is synthetic but shaped like the real thing: a Zipf-distributed vocabulary (a few
// words are everywhere, most are rare), domain words mixed in, every row embedded by the local
// embedder, timestamps spread over 90 days. It is bulk-loaded into a fresh in-memory PGlite in
// batches (unnest of arrays), then measured; the HTTP run serves a copy of the same database.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, openSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite/vector";
import { createAgent, issueKey } from "@/lib/agents/service";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { createClient } from "@/lib/clients/service";
import { setDatabaseForTests } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { wrapPglite } from "@/lib/db/pglite";
import type { Database } from "@/lib/db/types";
import { putDocument } from "@/lib/documents/service";
import { toVectorLiteral } from "@/lib/embeddings";
import { embedLocal, LOCAL_MODEL } from "@/lib/embeddings/local";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { clearBriefingCache } from "@/lib/retrieval/context/briefing";
import { assembleContext } from "@/lib/retrieval/context/assemble";
import { retrieve } from "@/lib/retrieval/service";
import { flushTermStats, noteInteractionWrite, noteSearchWrite } from "@/lib/retrieval/search/term-stats";
import { classify } from "@/lib/retrieval/smart-trigger/classify";
import { compileVocabulary, type VocabularyTerm } from "@/lib/retrieval/smart-trigger/vocabulary";
import { candidateTerms, indexVocabulary } from "@/lib/retrieval/smart-trigger/vocabulary-index";
import { createMemoryHq } from "@/lib/sdk";
import { measure, type BenchRow } from "./measure";

const ADMIN: HqCaller = { type: "hq", userId: null, name: "bench", email: null, role: "admin" };
const N = 200;
/**
 * Untimed calls before each measured series: each series moves to another agent's rows and indexes,
 * and the figures are about a server that is already serving (steady state), not its first calls.
 */
const WARMUP = 20;
const BATCH = 250;
const DAY = 86_400_000;

// ── a deterministic corpus ──────────────────────────────────────────────────────────────────────

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s + Math.imul(s ^ (s >>> 7), 61);
    return ((s ^ (s >>> 14)) >>> 0) / 4294967296;
  };
}

const DOMAIN = (
  "water heater invoice booking refund estimate quote schedule reschedule reminder follow-up drain leak pipe " +
  "customer technician appointment payment calendar sms email callback warranty inspection permit install repair " +
  "replace valve pump filter thermostat furnace boiler outage escalation complaint review discount deposit route " +
  "dispatch crew van parts supplier delivery backorder onboarding checklist template script objection pricing " +
  "morning afternoon weekend holiday emergency urgent priority status update report weekly monthly error failed"
).split(" ");
const SYLLABLES = "ka ro mi tu ze la vo ni sha pe dri qua lo ben tor vex ul ar im os".split(" ");

function makeVocabulary(size: number, random: () => number): string[] {
  const words = new Set(DOMAIN);
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    let w = "";
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf-ish: word i is drawn with weight 1/(i+1). */
function sampler(words: string[], random: () => number) {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < words.length; i++) cumulative.push((total += 1 / (i + 1)));
  return (count: number) => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const x = random() * total;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      out.push(words[lo]!);
    }
    return out.join(" ");
  };
}

interface Corpus {
  words: string[];
  text: (count: number) => string;
  random: () => number;
}

export function corpus(seed: number): Corpus {
  const random = rng(seed);
  // shuffled so the domain words are spread over the frequency ranks
  const words = makeVocabulary(3000, random).sort(() => random() - 0.5);
  return { words, text: sampler(words, random), random };
}

// ── bulk loading ────────────────────────────────────────────────────────────────────────────────

const MEMORY_KINDS = [
  ["core", "procedure"],
  ["core", "preference"],
  ["working", "project"],
  ["working", "thread"],
  ["working", "commitment"],
  ["learning", "insight"],
  ["learning", "decision"],
  ["learning", "lesson"],
] as const;

async function inBatches(count: number, load: (from: number, to: number) => Promise<void>) {
  for (let from = 0; from < count; from += BATCH) await load(from, Math.min(count, from + BATCH));
}

const timestamps = (c: Corpus, n: number, now: number) => Array.from({ length: n }, () => new Date(now - c.random() * 90 * DAY).toISOString());

export async function loadMemories(db: Database, c: Corpus, p: { agentId: string; scope: "agent" | "team"; count: number }) {
  const now = Date.now();
  await inBatches(p.count, async (from, to) => {
    const n = to - from;
    const titles = Array.from({ length: n }, () => c.text(6 + Math.floor(c.random() * 5)));
    const contents = Array.from({ length: n }, () => c.text(25 + Math.floor(c.random() * 25)));
    const kinds = Array.from({ length: n }, (_, i) => MEMORY_KINDS[(from + i) % MEMORY_KINDS.length]!);
    await db.query(
      `insert into memories (agent_id, scope, tier, category, title, content, confidence, embedding, embedding_model, occurred_at, created_at)
       select $1, $2, t.tier, t.category, t.title, t.content, t.confidence, t.embedding::vector, '${LOCAL_MODEL}', t.at, t.at
         from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[], $9::timestamptz[])
           as t (tier, category, title, content, confidence, embedding, at)`,
      [
        p.agentId,
        p.scope,
        kinds.map((k) => k[0]),
        kinds.map((k) => k[1]),
        titles,
        contents,
        kinds.map(() => 0.5 + c.random() / 2),
        titles.map((t, i) => toVectorLiteral(embedLocal(`${t}\n\n${contents[i]}`))),
        timestamps(c, n, now),
      ],
    );
  });
}

export async function loadInteractions(db: Database, c: Corpus, p: { agentId: string; clientId: string | null; count: number }) {
  const now = Date.now();
  // recorded as they happen: in time order, each turn after the one before it
  const times = timestamps(c, p.count, now).sort();
  await inBatches(p.count, async (from, to) => {
    const n = to - from;
    const contents = Array.from({ length: n }, () => c.text(15 + Math.floor(c.random() * 40)));
    await db.query(
      `insert into interactions (agent_id, client_id, channel, direction, speaker, content, embedding, embedding_model, occurred_at, created_at)
       select $1, $2, t.channel, t.direction, 'Customer', t.content, t.embedding::vector, '${LOCAL_MODEL}', t.at, t.at
         from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[]) as t (channel, direction, content, embedding, at)`,
      [
        p.agentId,
        p.clientId,
        contents.map((_, i) => ((from + i) % 3 === 0 ? "email" : "sms")),
        contents.map((_, i) => ((from + i) % 2 === 0 ? "inbound" : "outbound")),
        contents,
        contents.map((t) => toVectorLiteral(embedLocal(t))),
        times.slice(from, to),
      ],
    );
  });
}

export async function loadKnowledge(db: Database, c: Corpus, count: number) {
  const categories = ["procedure", "best-practice", "template", "skill-doc", "escalation", "tool-guide"];
  await inBatches(count, async (from, to) => {
    const n = to - from;
    // titles are unique among published entries: the row number keeps them so
    const titles = Array.from({ length: n }, (_, i) => `${c.text(5 + Math.floor(c.random() * 4))} #${from + i}`);
    const contents = Array.from({ length: n }, () => c.text(60 + Math.floor(c.random() * 80)));
    await db.query(
      `insert into knowledge_entries (title, content, category, created_by, updated_by, embedding, embedding_model)
       select t.title, t.content, t.category, 'bench', 'bench', t.embedding::vector, '${LOCAL_MODEL}'
         from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as t (title, content, category, embedding)`,
      [
        titles,
        contents,
        titles.map((_, i) => categories[(from + i) % categories.length]!),
        titles.map((t, i) => toVectorLiteral(embedLocal(`${t}\n\n${contents[i]}`))),
      ],
    );
  });
}

/**
 * Bulk loads run with the HNSW and GIN indexes dropped and rebuilt afterwards, exactly as the
 * migrations defined them (definitions, storage parameters included, are read back from
 * pg_indexes): inserting row by row into an HNSW graph costs ~25 ms a row in PGlite, building the
 * graph once ~2.5 ms a row.
 */
export async function withoutSearchIndexes(db: Database, load: () => Promise<void>) {
  const indexes = await db.query<{ name: string; definition: string }>(
    `select indexname as name, indexdef as definition from pg_indexes
      where schemaname = 'public' and (indexdef ilike '%using hnsw%' or indexdef ilike '%using gin%')`,
  );
  for (const i of indexes) await db.exec(`drop index ${i.name}`);
  try {
    await load();
  } finally {
    // one process: no parallel build (its shared memory segment cannot be had in PGlite)
    await db.exec("set maintenance_work_mem = '512MB'; set max_parallel_maintenance_workers = 0");
    for (const i of indexes) await db.exec(i.definition);
    await db.exec("reset maintenance_work_mem; reset max_parallel_maintenance_workers");
  }
}

// ── the benchmark ───────────────────────────────────────────────────────────────────────────────

const asCallerOf = (agent: { id: string; name: string; kind: "internal" | "field"; role: AgentCaller["role"]; clientId: string | null }): AgentCaller => ({
  type: "agent",
  agentId: agent.id,
  name: agent.name,
  kind: agent.kind,
  role: agent.role,
  clientId: agent.clientId,
  kbAccess: "read",
});

/**
 * The corpus's 300 most frequent words but its domain words: a domain word such as "escalation" or
 * "urgent" is a trigger of its own and would move a message to another level than its phrasing asks for.
 */
const madeUpWords = (c: Corpus) => c.words.slice(0, 300).filter((w) => !DOMAIN.includes(w));

/** Messages that reach each level, built from the corpus's own words so searches find something. */
export function messages(c: Corpus, count: number, level: "local" | "hq") {
  const common = madeUpWords(c);
  const pick = () => common[Math.floor(c.random() * common.length)]!;
  return Array.from({ length: count }, (_, i) =>
    level === "hq"
      ? [`How do I handle the ${pick()} ${pick()} for ${pick()}?`, `The ${pick()} ${pick()} is not working again`, `Should I escalate the ${pick()} ${pick()} issue?`][i % 3]!
      : [`Remember when we talked about the ${pick()} ${pick()}?`, `Last time we did the ${pick()} ${pick()} it took long`, `Actually, the ${pick()} ${pick()} moved to Friday`][i % 3]!,
  );
}

export async function benchRetrieval(): Promise<BenchRow[]> {
  // how the cost grows with the data, on both engines (bench/retrieval-scale.ts); `--sizes`
  // runs that table alone
  const { benchRetrievalScale, scaleOnly } = await import("./retrieval-scale");
  if (scaleOnly()) return benchRetrievalScale();
  const rows = [...(await benchFixedSizes()), ...(await benchRetrievalScale())];
  return rows;
}

async function benchFixedSizes(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  rows.push(...benchClassifier());

  const pg = await PGlite.create("memory://", { extensions: { vector, pg_trgm } });
  const db = wrapPglite(pg);
  await migrate(db);
  setDatabaseForTests(db);
  try {
    const c = corpus(42);
    const clientSmall = await createClient(ADMIN, { name: "Bench Small Co", triggerTerms: ["water heater"] });
    const clientLarge = await createClient(ADMIN, { name: "Bench Large Co", triggerTerms: ["drain"] });
    const small = (await createAgent(ADMIN, { name: "Bench 1k", kind: "field", role: "orchestrator", clientId: clientSmall.client.id })).agent;
    const large = (await createAgent(ADMIN, { name: "Bench 10k", kind: "field", role: "orchestrator", clientId: clientLarge.client.id })).agent;
    const internal = (await createAgent(ADMIN, { name: "Bench Internal", kind: "internal", role: "orchestrator" })).agent;
    const teammate = (await createAgent(ADMIN, { name: "Bench Teammate", kind: "internal", role: "specialist" })).agent;

    const t0 = performance.now();
    await withoutSearchIndexes(db, async () => {
      await loadMemories(db, c, { agentId: small.id, scope: "agent", count: 1_000 });
      await loadInteractions(db, c, { agentId: small.id, clientId: clientSmall.client.id, count: 1_000 });
      await loadMemories(db, c, { agentId: large.id, scope: "agent", count: 10_000 });
      await loadInteractions(db, c, { agentId: large.id, clientId: clientLarge.client.id, count: 10_000 });
      await loadMemories(db, c, { agentId: internal.id, scope: "agent", count: 1_000 });
      await loadMemories(db, c, { agentId: teammate.id, scope: "team", count: 1_000 });
      await loadKnowledge(db, c, 10_000);
    });
    // what the server's statistics job does a moment after writes (lib/retrieval/search/term-stats.ts):
    // the conversations' statistics rebuilt, the memory and knowledge statistics' log folded in, the
    // postings vacuumed
    noteInteractionWrite(small.id, clientSmall.client.id);
    noteInteractionWrite(large.id, clientLarge.client.id);
    noteSearchWrite();
    await flushTermStats();
    await db.exec("analyze");
    const loadSeconds = (performance.now() - t0) / 1000;
    process.stderr.write(`bench: retrieval corpus loaded in ${loadSeconds.toFixed(0)} s\n`);

    const callers = { small: asCallerOf(small), large: asCallerOf(large), internal: asCallerOf(internal) };
    for (const caller of Object.values(callers)) {
      await putDocument(caller, "me", "soul", { content: `# ${caller.name}\n\n${c.text(300)}` });
      await putDocument(caller, "me", "working", { content: c.text(250).slice(0, 1900) });
      await putDocument(caller, "me", "daily", { content: c.text(120) });
    }

    // the machine's speed, to read the other rows against: one statement's round trip into the
    // embedded database (every retrieve makes about ten)
    rows.push(await measure("embedded database round trip (select 1)", { n: N, warmup: WARMUP, notes: "calibration: this machine's speed" }, () => db.query("select 1")));
    const corpusNote = "10k KB entries";
    const run = (caller: AgentCaller, msgs: string[], expect: string) => async (i: number) => {
      const r = await retrieve(caller, { message: msgs[i % msgs.length]! });
      if (r.level !== expect) throw new Error(`expected level ${expect}, got ${r.level} for "${msgs[i % msgs.length]}"`);
    };
    const local = messages(c, 50, "local");
    const hq = messages(c, 50, "hq");
    rows.push(await measure("retrieve in-process, local, 1k", { n: N, warmup: WARMUP, notes: "1k memories + 1k interactions + docs" }, run(callers.small, local, "local")));
    rows.push(await measure("retrieve in-process, hq, 1k", { n: N, warmup: WARMUP, notes: `1k + 1k + docs + ${corpusNote}` }, run(callers.small, hq, "hq")));
    rows.push(await measure("retrieve in-process, local, 10k", { n: N, warmup: WARMUP, notes: "10k memories + 10k interactions + docs" }, run(callers.large, local, "local")));
    const inProcess = await measure("retrieve in-process, hq, 10k", { n: N, warmup: WARMUP, notes: `10k + 10k + docs + ${corpusNote}` }, run(callers.large, hq, "hq"));
    rows.push(inProcess);
    // where the time of the hq level goes: each of its scopes alone (explicit scopes)
    for (const scope of ["memories", "documents", "interactions", "knowledge"] as const) {
      rows.push(
        await measure(`retrieve in-process, ${scope} only, 10k`, { n: N, warmup: WARMUP, notes: `scopes: ["${scope}"], hq messages` }, async (i) => {
          await retrieve(callers.large, { message: hq[i % hq.length]!, scopes: [scope] });
        }),
      );
    }
    // over HTTP right after the in-process rows it is compared with
    const { key } = await issueKey(ADMIN, large.id, { label: "bench" });
    // the same calls in process on the database's files as the server opens them (on disk, with
    // its page cache), then over HTTP against the server on those files
    const onDisk = async (files: PGlite) => {
      setDatabaseForTests(wrapPglite(files));
      try {
        return await measure("retrieve in-process, hq, 10k, on disk", { n: N, warmup: WARMUP, notes: "the server's copy of the database, opened in process" }, run(callers.large, hq, "hq"));
      } finally {
        // the counters these calls left pending go to this copy before it closes, not to a closed one later
        await flushAccessCounts();
        setDatabaseForTests(db);
      }
    };
    const [diskRow, ...overHttp] = await benchHttp(pg, key, hq, onDisk, run(callers.large, hq, "hq"));
    rows.push(diskRow!, ...overHttp);
    // what HTTP adds to the same calls: the production server (its own database thread, the socket,
    // Next.js, key check, JSON) against the in-process rows above. Target: ≤ 5 ms at p50.
    const http = overHttp[0]!;
    if (http.n > 0) {
      rows.push({
        benchmark: "retrieve, HTTP − in-process, hq, 10k",
        n: http.n,
        p50: http.p50 - inProcess.p50,
        p95: http.p95 - inProcess.p95,
        notes: `"retrieve over HTTP, hq, 10k" minus "retrieve in-process, hq, 10k" (in memory); target ≤ 5 ms at p50`,
      });
      if (diskRow && diskRow.n > 0) {
        rows.push({
          benchmark: "retrieve, HTTP − in-process on disk, hq, 10k",
          n: http.n,
          p50: http.p50 - diskRow.p50,
          p95: http.p95 - diskRow.p95,
          notes: `"retrieve over HTTP, hq, 10k" minus "retrieve in-process, hq, 10k, on disk": the same files, what HTTP and the engine's thread add`,
        });
      }
    }
    const made = madeUpWords(c);
    // naming the team: a first-person question that names no one else is the agent's own (local)
    const shared = Array.from({ length: 50 }, (_, i) => `What did the team decide about the ${made[i % made.length]} ${made[(i * 7) % made.length]} plan?`);
    rows.push(
      await measure("retrieve in-process, shared, internal", { n: N, warmup: WARMUP, notes: "1k own memories + 1k team memories + docs" }, run(callers.internal, shared, "shared")),
    );

    const topics = local.map((m) => m.replace(/^\w+ \w+ /, ""));
    rows.push(
      await measure("context assembly, 10k (briefing cached)", { n: N, warmup: WARMUP, notes: "soul, scratchpad, briefing, 3+2 memories, constants" }, (i) =>
        assembleContext(callers.large, "me", { topic: topics[i % topics.length] }),
      ),
    );
    rows.push(
      await measure("context assembly, 10k (briefing rebuilt)", { n: N, warmup: WARMUP, notes: "as above, briefing cache cleared every call" }, (i) => {
        clearBriefingCache();
        return assembleContext(callers.large, "me", { topic: topics[i % topics.length] });
      }),
    );

  } finally {
    await flushAccessCounts();
    setDatabaseForTests(undefined);
    await db.close();
  }
  return rows;
}

/** Throughput of the zero-token classifier with a realistic compiled vocabulary. */
function benchClassifier(): BenchRow[] {
  const vocabulary: VocabularyTerm[] = [
    ...Array.from({ length: 20 }, (_, i) => ({ term: `Agent${i} Name`, type: "agent" as const })),
    ...Array.from({ length: 30 }, (_, i) => ({ term: `Client ${i} Plumbing`, type: "client" as const })),
    ...Array.from({ length: 90 }, (_, i) => ({ term: `service term ${i}`, type: "term" as const })),
    ...Array.from({ length: 500 }, (_, i) => ({ term: `Contact${i} Person`, type: "contact" as const })),
    ...Array.from({ length: 10 }, (_, i) => ({ term: `Mission ${i} rollout`, type: "mission" as const })),
  ];
  const sample = [
    "Should we move the backtest to next week?",
    "Remember when the funding-rate signal fired early?",
    "How do I register a new cron job?",
    "Thanks!",
    "Please book Tuesday at 3pm",
    "Did Contact250 Person call back about the leak?",
    "The booking link is broken again, should I escalate?",
    "Actually, the deadline moved to Friday",
    "What are the next steps for Mission 3 rollout?",
    "Write a short tweet about spring cleaning, nothing fancy, keep it under 200 characters please",
  ];
  const rows: BenchRow[] = [];
  for (const variant of ["internal", "field"] as const) {
    const started = performance.now();
    // as the service does it: compiled once per agent and indexed by first word (lib/retrieval/smart-trigger/agent-vocabulary.ts)
    const index = indexVocabulary(compileVocabulary(vocabulary, "Agent0 Name"));
    const compileMs = performance.now() - started;
    const batch = 1000;
    const times: number[] = [];
    for (let round = 0; round < 60; round++) {
      const t = performance.now();
      for (let i = 0; i < batch; i++) {
        const message = sample[i % sample.length]!;
        classify(message, { variant, compiled: candidateTerms(index, message) });
      }
      if (round >= 10) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(times.length * 0.5)]!;
    const p95 = times[Math.ceil(times.length * 0.95) - 1]!;
    rows.push({
      benchmark: `classify, ${variant} (per 1000 messages)`,
      n: times.length,
      p50,
      p95,
      notes: `${vocabulary.length}-term vocabulary (compiled once in ${compileMs.toFixed(1)} ms); ms per 1000 = µs per message; ≈${Math.round(batch / (p50 / 1000)).toLocaleString("en-US")} msgs/s`,
    });
  }
  return rows;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * POST /retrieve over HTTP against the production server (server.mjs on the build in NEXT_DIST_DIR), serving a
 * copy of the benchmark database from a temporary DATA_DIR. Builds the app first when there is no build.
 */
/**
 * Untimed calls to a freshly started server before its rows are measured: about as many as the
 * in-process rows it is compared with ran before them (four series of retrieve and four of its scopes,
 * ~1,700 calls), so both sides' code is compiled as far. With 100, the server's handler was still
 * getting faster call by call (~20 ms at the 100th call, ~14 ms by the 600th).
 */
const HTTP_WARMUP = 800;

async function benchHttp(
  pg: PGlite,
  key: string,
  msgs: string[],
  onDisk: (files: PGlite) => Promise<BenchRow>,
  inProcess: (i: number) => Promise<void>,
): Promise<BenchRow[]> {
  const name = "retrieve over HTTP, hq, 10k";
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
  if (!existsSync(path.join(distDir, "BUILD_ID"))) {
    // the same production build `npm start` makes and serves
    process.stderr.write(`bench: no production build in ${distDir}, running next build…\n`);
    const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_DIST_DIR: distDir } });
    if (build.status !== 0) {
      const failed = (benchmark: string) => ({ benchmark, n: 0, p50: NaN, p95: NaN, notes: `failed: next build exited with ${build.status}` });
      return [failed("retrieve in-process, hq, 10k, on disk"), failed(name)];
    }
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mhq-bench-http-"));
  let child: ChildProcess | undefined;
  let diskRow: BenchRow | undefined;
  try {
    // the server opens <DATA_DIR>/pglite: restore the in-memory database there
    const dump = await pg.dumpDataDir("none");
    // with the server's page cache (PGLITE_SHARED_BUFFERS, as server/engine/worker.mjs applies it)
    const buffers = process.env.PGLITE_SHARED_BUFFERS;
    const copy = await PGlite.create(path.join(dataDir, "pglite"), {
      extensions: { vector, pg_trgm },
      loadDataDir: dump,
      ...(buffers ? { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${buffers}`] } : {}),
    });
    try {
      diskRow = await onDisk(copy);
    } finally {
      await copy.close();
    }

    // BENCH_PORT: a port of your own on a shared machine; else any free one
    const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
    // the production server npm start runs (server.mjs: the embedded database in its own thread)
    child = spawn(process.execPath, ["server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
      env: { ...process.env, NEXT_DIST_DIR: distDir, DATA_DIR: dataDir, SEED_DEMO: "false", NODE_ENV: "production", EMBEDDINGS_PROVIDER: "local" },
      // BENCH_SERVER_LOG=FILE keeps the server's output (to see why a request failed)
      stdio: process.env.BENCH_SERVER_LOG ? ["ignore", openSync(process.env.BENCH_SERVER_LOG, "a"), openSync(process.env.BENCH_SERVER_LOG, "a")] : "ignore",
      detached: true,
    });
    const hq = createMemoryHq({ baseUrl: `http://127.0.0.1:${port}`, key });
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server.mjs exited with ${child.exitCode}`);
      try {
        if ((await hq.system.health()).status === "ok") break;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error("server.mjs did not become healthy in 120 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    // a long-running server's code is compiled by now, as the in-process rows' is after the calls
    // before them: untimed calls first
    for (let i = 0; i < HTTP_WARMUP; i++) await hq.retrieval.retrieve({ body: { message: msgs[i % msgs.length]! } });
    const http = await measure(name, { n: N, warmup: WARMUP, notes: `server.mjs on 127.0.0.1 (${distDir}); includes key auth, JSON and fetch` }, async (i) => {
      // the TypeScript client agents use: throws on any answer but 2xx
      await hq.retrieval.retrieve({ body: { message: msgs[i % msgs.length]! } });
    });
    // where the time over HTTP goes: the server's Server-Timing splits the wait for a turn (queue) and
    // the route handler (app: key check, parsing, the retrieval, JSON); the rest is Next.js's routing
    // and proxy, the HTTP server and the client
    const app: number[] = [];
    const outside: number[] = [];
    const overhead = await measure(`HTTP overhead of retrieve, hq, 10k`, { n: N, warmup: WARMUP }, async (i) => {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/retrieve`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ message: msgs[i % msgs.length]! }),
      });
      await res.text();
      const total = performance.now() - t0;
      const timing = res.headers.get("server-timing") ?? "";
      const dur = (k: string) => Number(new RegExp(`${k};dur=([\\d.]+)`).exec(timing)?.[1] ?? NaN);
      if (i >= WARMUP) {
        app.push(dur("app"));
        outside.push(total - dur("app") - dur("queue"));
      }
    });
    const at = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;
    const split = (xs: number[]) => `p50 ${at(xs, 0.5).toFixed(1)}, p95 ${at(xs, 0.95).toFixed(1)} ms`;
    overhead.notes = `per call, fetch total; of it the route handler (Server-Timing app) ${split(app)}, everything outside it ${split(outside)}`;
    // the two compared call by call: the same message in process (the in-memory database) and then
    // over HTTP, alternating, so both meet the same state of the machine; separate series minutes
    // apart differ by several ms on a shared 2-core machine
    const local: number[] = [];
    const remote: number[] = [];
    // The in-process calls' own background work — folding the access counters they recorded, which
    // the server does for its calls in its engine thread — is done between the pairs: left to its
    // timer, it ran in this process while the server was answering, two busy threads of the server's
    // and this one's on two cores, and counted against the HTTP call.
    const paired = await measure("retrieve, HTTP − in-process, paired calls", { n: N, warmup: WARMUP, notes: "" }, async (i) => {
      await flushAccessCounts();
      const t0 = performance.now();
      await inProcess(i);
      const t1 = performance.now();
      await hq.retrieval.retrieve({ body: { message: msgs[i % msgs.length]! } });
      if (i >= WARMUP) {
        local.push(t1 - t0);
        remote.push(performance.now() - t1);
      }
    });
    const differences = remote.map((r, j) => r - local[j]!);
    const pairedRow: BenchRow = {
      benchmark: paired.benchmark,
      n: differences.length,
      p50: at(differences, 0.5),
      p95: at(differences, 0.95),
      notes: `each call over HTTP minus the same call just before it in process (in memory): in process ${split(local)}, over HTTP ${split(remote)}; target ≤ 5 ms at p50`,
    };
    return [diskRow, http, overhead, pairedRow];
  } catch (err) {
    const failed = (benchmark: string) => ({ benchmark, n: 0, p50: NaN, p95: NaN, notes: `failed: ${err instanceof Error ? err.message : String(err)}` });
    return [diskRow ?? failed("retrieve in-process, hq, 10k, on disk"), failed(name)];
  } finally {
    if (child?.pid && child.exitCode === null) {
      // the server was started in its own process group: end that group, and only it
      const exited = new Promise((r) => child!.once("exit", r));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
      // its graceful shutdown still writes to DATA_DIR: the folder is removed once it has exited
      await Promise.race([exited, new Promise((r) => setTimeout(r, 35_000))]);
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}
