// How retrieval's cost grows with the data: POST /retrieve's work (in process) for an agent holding
// 1k, 10k and 100k memories and as many conversation messages, on the embedded database and on a real
// PostgreSQL server (DATABASE_URL), so an operator can see when to move from one to the other.
// Target on PostgreSQL at 100k: retrieve p95 ≤ 50 ms in process.
//
//   npm run bench -- retrieval --sizes 1k,10k,100k [--engines pglite,postgres]
//   npm run bench -- retrieval --sizes none      (the fixed-size rows and the HTTP rows only)
//
// At each size S the measured agent holds S memories and S messages, another agent S/2 of each, and
// the knowledge base S/10 entries: at 100k, ~300k rows besides the smaller sizes' agents. Rows are
// loaded in bulk through SQL (unnest of arrays of 5,000 rows, search indexes built once afterwards).
// Embeddings: the local model is deterministic, so 2,000 distinct texts are embedded once and their
// vectors reused — each row is one of those texts plus a few words of its own, carrying that text's
// vector. Timings are realistic (every row has a vector, the index is as large); ranking quality is
// measured by `npm run bench -- quality`, not here.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createAgent } from "@/lib/agents/service";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { createClient } from "@/lib/clients/service";
import { getConfig } from "@/lib/config";
import { setDatabaseForTests } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { openPostgres, preparesStatements } from "@/lib/db/postgres";
import type { Database } from "@/lib/db/types";
import { putDocument } from "@/lib/documents/service";
import { toVectorLiteral } from "@/lib/embeddings";
import { embedLocal, LOCAL_MODEL } from "@/lib/embeddings/local";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { retrieve } from "@/lib/retrieval/service";
import { flushTermStats, noteInteractionWrite, noteSearchWrite } from "@/lib/retrieval/search/term-stats";
import { measure, type BenchRow } from "./measure";
import { corpus, messages, withoutSearchIndexes } from "./retrieval";

const ADMIN: HqCaller = { type: "hq", userId: null, name: "bench", email: null, role: "admin" };
const DISTINCT = 2_000;
const BATCH = 5_000;
const N = 100;
const WARMUP = 10;

const SIZES: Record<string, number> = { "1k": 1_000, "10k": 10_000, "100k": 100_000 };

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** `--sizes` given: the retrieval bench runs only this table (`none`: only the other rows). */
export const scaleOnly = () => option("sizes") !== undefined && option("sizes") !== "none";

export async function benchRetrievalScale(): Promise<BenchRow[]> {
  if (option("sizes") === "none") return [];
  const sizes = (option("sizes") ?? "1k,10k").split(",").map((s) => {
    const n = SIZES[s.trim()];
    if (!n) throw new Error(`--sizes takes ${Object.keys(SIZES).join(", ")}; got ${s}`);
    return [s.trim(), n] as const;
  });
  const serverUrl = process.env.BENCH_SERVER_DATABASE_URL;
  const engines = (option("engines") ?? (serverUrl ? "pglite,postgres" : "pglite")).split(",").map((e) => e.trim());
  const rows: BenchRow[] = [];
  for (const engine of engines) {
    if (engine === "postgres" && !serverUrl) {
      rows.push({ benchmark: "retrieve by size, postgres", n: 0, p50: NaN, p95: NaN, notes: "skipped: set DATABASE_URL (an admin URL: the bench creates and drops its own database)" });
      continue;
    }
    const target = engine === "postgres" ? await serverDatabase(serverUrl!) : await embeddedDatabase();
    try {
      rows.push(...(await runSizes(engine, target.db, sizes)));
    } finally {
      await target.close();
    }
  }
  return rows;
}

/** The embedded database in a temporary folder on disk, as an instance runs it (in memory, 100k would need ~15 GB of RAM). */
async function embeddedDatabase() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "mhq-bench-scale-"));
  const { db } = await openPglite(path.join(dir, "pglite"));
  await migrate(db);
  return {
    db,
    close: async () => {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A database of its own on the server at `adminUrl` (created, migrated, dropped afterwards). */
async function serverDatabase(adminUrl: string) {
  const name = `mhq_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end({ timeout: 5 });
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const inDb = postgres(u.toString(), { max: 1, onnotice: () => {} });
  await inDb.unsafe("create extension if not exists vector");
  await inDb.end({ timeout: 5 });
  // as the app opens DATABASE_URL (DATABASE_PREPARE, default auto)
  const db = openPostgres(u.toString(), { max: 10, prepare: preparesStatements(u.toString(), getConfig().DATABASE_PREPARE) });
  await migrate(db);
  return {
    db,
    close: async () => {
      await db.close();
      const drop = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await drop.unsafe(`drop database if exists ${name} with (force)`);
      await drop.end({ timeout: 5 });
    },
  };
}

async function runSizes(engine: string, db: Database, sizes: (readonly [string, number])[]): Promise<BenchRow[]> {
  setDatabaseForTests(db);
  const rows: BenchRow[] = [];
  try {
    const c = corpus(7);
    const t0 = performance.now();
    // the distinct texts and their vectors, embedded once
    const memoryTexts = Array.from({ length: DISTINCT }, () => c.text(25 + Math.floor(c.random() * 25)));
    const messageTexts = Array.from({ length: DISTINCT }, () => c.text(15 + Math.floor(c.random() * 30)));
    await db.exec("create table bench_vectors (kind text, i int, v vector, primary key (kind, i))");
    for (const [kind, texts] of [["memory", memoryTexts], ["message", messageTexts]] as const) {
      for (let from = 0; from < DISTINCT; from += 500) {
        const slice = texts.slice(from, from + 500);
        await db.query(
          "insert into bench_vectors (kind, i, v) select $1, t.ord::int - 1 + $2, t.v::vector from unnest($3::text[]) with ordinality as t (v, ord)",
          [kind, from, slice.map((t) => toVectorLiteral(embedLocal(t)))],
        );
      }
    }
    const agents: { size: string; caller: AgentCaller }[] = [];
    let total = 0;
    await withoutSearchIndexes(db, async () => {
      for (const [label, size] of sizes) {
        const client = (await createClient(ADMIN, { name: `Scale ${label} Co`, triggerTerms: [] })).client;
        const measured = (await createAgent(ADMIN, { name: `Scale ${label}`, kind: "field", role: "orchestrator", clientId: client.id })).agent;
        const other = (await createAgent(ADMIN, { name: `Scale ${label} other`, kind: "field", role: "orchestrator", clientId: client.id })).agent;
        await loadMemories(db, c, measured.id, size, memoryTexts);
        await loadMessages(db, c, measured.id, client.id, size, messageTexts);
        await loadMemories(db, c, other.id, size / 2, memoryTexts);
        await loadMessages(db, c, other.id, client.id, size / 2, messageTexts);
        await loadKnowledge(db, c, size / 10, memoryTexts, label);
        total += size * 3 + size / 10;
        noteInteractionWrite(measured.id, client.id);
        noteInteractionWrite(other.id, client.id);
        agents.push({
          size: label,
          caller: { type: "agent", agentId: measured.id, name: measured.name, kind: "field", role: "orchestrator", clientId: client.id, kbAccess: "read" },
        });
        process.stderr.write(`bench: ${engine}: ${label} loaded (${total.toLocaleString("en-US")} rows so far, ${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
      }
    });
    await db.exec("drop table bench_vectors");
    noteSearchWrite();
    await flushTermStats();
    await db.exec("analyze");
    const loadSeconds = (performance.now() - t0) / 1000;
    process.stderr.write(`bench: ${engine}: ${total.toLocaleString("en-US")} rows loaded and indexed in ${loadSeconds.toFixed(0)} s\n`);

    for (const { caller } of agents) {
      await putDocument(caller, "me", "soul", { content: `# ${caller.name}\n\n${c.text(300)}` });
      await putDocument(caller, "me", "working", { content: c.text(250).slice(0, 1900) });
    }
    const hq = messages(c, 50, "hq");
    const local = messages(c, 50, "local");
    const notes = `${engine}; ${total.toLocaleString("en-US")} rows in all (loaded in ${loadSeconds.toFixed(0)} s); vectors of ${DISTINCT} distinct texts reused`;
    for (const { size, caller } of agents) {
      for (const [level, msgs] of [["local", local], ["hq", hq]] as const) {
        rows.push(
          await measure(`retrieve by size, ${engine}, ${level}, ${size}`, { n: N, warmup: WARMUP, notes }, async (i) => {
            const r = await retrieve(caller, { message: msgs[i % msgs.length]! });
            if (r.level !== level) throw new Error(`expected level ${level}, got ${r.level}`);
          }),
        );
      }
    }
  } finally {
    await flushAccessCounts();
    setDatabaseForTests(undefined);
  }
  return rows;
}

const MEMORY_KINDS = ["core:procedure", "core:preference", "working:project", "working:thread", "working:commitment", "learning:insight", "learning:decision", "learning:lesson"];

/** In batches: each row one of the distinct texts (its vector) plus a few words of its own; times spread over 90 days. */
async function loadMemories(db: Database, c: ReturnType<typeof corpus>, agentId: string, count: number, texts: string[]) {
  for (let from = 0; from < count; from += BATCH) {
    const n = Math.min(BATCH, count - from);
    const which = Array.from({ length: n }, () => Math.floor(c.random() * DISTINCT));
    await db.query(
      `insert into memories (agent_id, scope, tier, category, title, content, confidence, embedding, embedding_model, occurred_at, created_at)
       select $1, 'agent', split_part(x.kind, ':', 1), split_part(x.kind, ':', 2), t.title, t.content,
              0.5 + (t.ord % 50) / 100.0, v.v, '${LOCAL_MODEL}', x.at, x.at
         from unnest($2::text[], $3::text[], $4::int[]) with ordinality as t (title, content, vi, ord)
         join bench_vectors v on v.kind = 'memory' and v.i = t.vi
         cross join lateral (select ($6::text[])[1 + ((t.ord + $5) % 8)] as kind,
                                    now() - (((t.ord + $5) * 7919) % 7776000) * interval '1 second' as at) x`,
      [
        agentId,
        which.map(() => c.text(6 + Math.floor(c.random() * 4))),
        which.map((w) => `${texts[w]} ${c.text(6)}`),
        which,
        from,
        MEMORY_KINDS,
      ],
    );
  }
}

async function loadMessages(db: Database, c: ReturnType<typeof corpus>, agentId: string, clientId: string, count: number, texts: string[]) {
  for (let from = 0; from < count; from += BATCH) {
    const n = Math.min(BATCH, count - from);
    const which = Array.from({ length: n }, () => Math.floor(c.random() * DISTINCT));
    // recorded as they happen: in time order
    await db.query(
      `insert into interactions (agent_id, client_id, channel, direction, speaker, content, embedding, embedding_model, occurred_at, created_at)
       select $1, $2, case when (t.ord + $5) % 3 = 0 then 'email' else 'sms' end,
              case when (t.ord + $5) % 2 = 0 then 'inbound' else 'outbound' end, 'Customer', t.content, v.v, '${LOCAL_MODEL}',
              now() - interval '90 days' + ((t.ord + $5) * (7776000.0 / $6)) * interval '1 second',
              now() - interval '90 days' + ((t.ord + $5) * (7776000.0 / $6)) * interval '1 second'
         from unnest($3::text[], $4::int[]) with ordinality as t (content, vi, ord)
         join bench_vectors v on v.kind = 'message' and v.i = t.vi`,
      [agentId, clientId, which.map((w) => `${texts[w]} ${c.text(5)}`), which, from, count],
    );
  }
}

async function loadKnowledge(db: Database, c: ReturnType<typeof corpus>, count: number, texts: string[], label: string) {
  const categories = ["procedure", "best-practice", "template", "skill-doc", "escalation", "tool-guide"];
  for (let from = 0; from < count; from += BATCH) {
    const n = Math.min(BATCH, count - from);
    const which = Array.from({ length: n }, () => Math.floor(c.random() * DISTINCT));
    await db.query(
      `insert into knowledge_entries (title, content, category, created_by, updated_by, embedding, embedding_model)
       select t.title, t.content, ($4::text[])[1 + (t.ord % 6)], 'bench', 'bench', v.v, '${LOCAL_MODEL}'
         from unnest($1::text[], $2::text[], $3::int[]) with ordinality as t (title, content, vi, ord)
         join bench_vectors v on v.kind = 'memory' and v.i = t.vi`,
      [
        // titles are unique among published entries
        which.map((_, i) => `${c.text(5)} #${label}-${from + i}`),
        which.map((w) => `${texts[w]} ${c.text(40)}`),
        which,
        categories,
      ],
    );
  }
}
