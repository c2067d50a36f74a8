// `npm run bench -- load`: many agents at once against the production server (server.mjs), for a fixed time.
//
// BENCH_LOAD_AGENTS (default 200) agents — internal agents and field agents of four clients, each
// with its own key — loop without pause over a mix of POST /retrieve (40%), memory writes (20%),
// scratchpad saves (20%) and knowledge searches (20%) for BENCH_LOAD_SECONDS (default 30). Run
// against the embedded database (a fresh DATA_DIR) and, when DATABASE_URL is set,
// against that server database too (migrated first; it receives the bench's agents and rows, so
// point it at a scratch database). Prints req/s, p50/p95/p99 per operation, failed requests (5xx,
// dropped connections) and refused ones (429 from the admission queue). Targets on a 2-core
// machine: 0 failed at 200 agents on both engines, p95 within 2.5× and p99 within 5× p50, ≥ 80 req/s
// embedded and no fewer on a server database. Each agent's first three calls are an untimed warm-up.
// BENCH_LOAD_PORT (default 3121) is the first port used. BENCH_LOAD_DUMP=<file> writes every timed
// call (operation, start, client-side ms, status, and the server's Server-Timing queue/app ms) as JSON.
// BENCH_LOAD_ENGINES (default "embedded,postgres"): which of the two to run (postgres needs DATABASE_URL).
// BENCH_LOAD_NODE_ARGS: options for the server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it).
import type { ChildProcess } from "node:child_process";
import type { BenchModule, BenchRow } from "./measure";
import { BENCH_ADMIN_KEY as ADMIN_KEY, call, ensureBuild, must, onEachEngine, percentile, startServer, stop } from "./server";

const AGENTS = Number(process.env.BENCH_LOAD_AGENTS || 200);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS || 30);
const FIRST_PORT = Number(process.env.BENCH_LOAD_PORT || 3121);
const CLIENTS = 4;

type Op = "retrieve" | "memory write" | "scratchpad save" | "knowledge search";
const MIX: [Op, number][] = [
  ["retrieve", 0.4],
  ["memory write", 0.2],
  ["scratchpad save", 0.2],
  ["knowledge search", 0.2],
];

const TOPICS = ["water heater", "drain cleaning", "invoice", "refund", "onboarding", "escalation", "booking", "pricing", "warranty", "gasket"];
const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;

interface Agent {
  key: string;
  name: string;
}

interface Sample {
  op: Op;
  /** ms since the run started */
  at: number;
  /** the server's Server-Timing: waiting for a turn, and running */
  queueMs?: number;
  appMs?: number;
  ms: number;
  status: number; // 0: the connection failed
}

/** Agents (each with a key), knowledge entries and a few memories per agent, through the API. */
async function populate(base: string): Promise<Agent[]> {
  const tag = Math.random().toString(36).slice(2, 7);
  const clients: string[] = [];
  for (let c = 0; c < CLIENTS; c++) {
    clients.push((await must(base, ADMIN_KEY, "POST", "/api/v1/clients", { name: `Load ${tag} Client ${c}`, triggerTerms: [pick(TOPICS, c)] })).client.id);
  }
  for (let i = 0; i < 40; i++) {
    const topic = pick(TOPICS, i);
    await must(base, ADMIN_KEY, "POST", "/api/v1/knowledge", {
      title: `Load ${tag}: ${topic} procedure ${i}`,
      content: `When a customer asks about ${topic}, check the account, confirm the ${topic} details and follow step ${i}.`,
      category: "procedure",
    });
  }
  const agents: Agent[] = [];
  const make = async (i: number) => {
    const field = i % 5 >= 3; // 40% field agents, spread over the clients
    const name = `Load ${tag} ${field ? "Field" : "Internal"} ${i}`;
    const agent = (
      await must(base, ADMIN_KEY, "POST", "/api/v1/agents", {
        name,
        kind: field ? "field" : "internal",
        role: i % 7 === 0 ? "specialist" : "orchestrator",
        ...(field ? { clientId: clients[i % CLIENTS] } : {}),
      })
    ).agent;
    const { key } = await must(base, ADMIN_KEY, "POST", `/api/v1/agents/${agent.id}/keys`, { label: "load" });
    for (let m = 0; m < 3; m++) {
      await must(base, key, "POST", "/api/v1/agents/me/memories", {
        tier: "learning",
        category: "insight",
        title: `${pick(TOPICS, i + m)} lesson ${m}`,
        content: `What worked for ${pick(TOPICS, i + m)}: call back within the hour (${i}/${m}).`,
        confidence: 0.8,
      });
    }
    agents.push({ key, name });
  };
  // a few at a time: populating is not what is measured
  for (let i = 0; i < AGENTS; i += 8) await Promise.all(Array.from({ length: Math.min(8, AGENTS - i) }, (_, j) => make(i + j)));
  return agents;
}

function chooseOp(r: number): Op {
  let acc = 0;
  for (const [op, w] of MIX) if (r < (acc += w)) return op;
  return MIX[0]![0];
}

/**
 * Every agent loops over the mix. Its first WARMUP_CALLS calls (one of each operation) are made at
 * once by all agents and not recorded, and the timed window starts when the last agent has made
 * them: the figures describe a serving system (every agent connected and busy, every route and
 * cache warm) rather than 200 agents' first calls landing at the same instant.
 */
async function drive(base: string, agents: Agent[]): Promise<{ samples: Sample[]; seconds: number; errors: string[]; warmupSeconds: number }> {
  const samples: Sample[] = [];
  const errors: string[] = [];
  const warmStart = performance.now();
  await Promise.all(
    agents.map(async (agent, a) => {
      const topic = pick(TOPICS, a);
      await call(base, agent.key, "POST", "/api/v1/retrieve", { message: `What do we know about the ${topic}?` }).catch(() => undefined);
      await call(base, agent.key, "PUT", "/api/v1/agents/me/documents/working", { content: `Warming up on ${topic}.` }).catch(() => undefined);
      await call(base, agent.key, "GET", `/api/v1/knowledge?q=${encodeURIComponent(topic)}&limit=5`).catch(() => undefined);
    }),
  );
  const started = performance.now();
  const warmupSeconds = (started - warmStart) / 1000;
  const end = started + SECONDS * 1000;
  await Promise.all(
    agents.map(async (agent, a) => {
      for (let i = 0; performance.now() < end; i++) {
        const op = chooseOp(Math.random());
        const topic = pick(TOPICS, a + i);
        const t0 = performance.now();
        let r: { status: number; queueMs: number; appMs: number } | undefined;
        try {
          switch (op) {
            case "retrieve":
              r = await call(base, agent.key, "POST", "/api/v1/retrieve", { message: `What do we know about the ${topic} for this customer?` });
              break;
            case "memory write":
              r = await call(base, agent.key, "POST", "/api/v1/agents/me/memories", {
                  tier: "working",
                  category: "thread",
                  title: `${topic} follow-up ${i}`,
                  content: `Customer asked about ${topic}; promised an answer by tomorrow (${i}).`,
                confidence: 0.7,
              });
              break;
            case "scratchpad save":
              r = await call(base, agent.key, "PUT", "/api/v1/agents/me/documents/working", { content: `Now: ${topic} (${i}). Next: confirm the booking.` });
              break;
            case "knowledge search":
              r = await call(base, agent.key, "GET", `/api/v1/knowledge?q=${encodeURIComponent(`${topic} procedure`)}&limit=5`);
              break;
          }
        } catch (err) {
          if (errors.length < 5) errors.push(err instanceof Error ? `${err.message} ${(err as { cause?: Error }).cause?.message ?? ""}` : String(err));
        }
        const status = r?.status ?? 0;
        if (t0 >= started) samples.push({ op, at: t0 - started, ms: performance.now() - t0, status, queueMs: r?.queueMs, appMs: r?.appMs });
        if (status === 429) await new Promise((r) => setTimeout(r, 1000)); // as a client honouring Retry-After would
      }
    }),
  );
  if (process.env.BENCH_LOAD_DUMP) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(process.env.BENCH_LOAD_DUMP, JSON.stringify(samples));
  }
  return { samples, seconds: (performance.now() - started) / 1000, errors, warmupSeconds };
}

function rows(engine: string, run: { samples: Sample[]; seconds: number; errors: string[]; warmupSeconds: number }): BenchRow[] {
  const out: BenchRow[] = [];
  const summarize = (label: string, ss: Sample[]) => {
    const served = ss.filter((s) => s.status > 0 && s.status < 500 && s.status !== 429);
    const times = served.map((s) => s.ms).sort((a, b) => a - b);
    const failed = ss.filter((s) => s.status === 0 || s.status >= 500).length;
    const refused = ss.filter((s) => s.status === 429).length;
    const otherErrors = ss.filter((s) => s.status >= 400 && s.status < 500 && s.status !== 429).length;
    out.push({
      benchmark: `load ${engine}: ${label}`,
      n: ss.length,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      notes: `p99 ${percentile(times, 99).toFixed(0)} ms, ${(served.length / run.seconds).toFixed(1)} req/s, ${failed} failed, ${refused} refused (429)${otherErrors ? `, ${otherErrors} other 4xx` : ""}`,
    });
  };
  for (const [op] of MIX) summarize(op, run.samples.filter((s) => s.op === op));
  summarize(`all (${AGENTS} agents, ${SECONDS} s)`, run.samples);
  out[out.length - 1]!.notes += `; untimed warm-up (3 calls per agent, all at once) took ${run.warmupSeconds.toFixed(1)} s`;
  if (run.errors.length) out[out.length - 1]!.notes += `; errors: ${run.errors.join(" | ")}`;
  return out;
}

async function runEngine(engine: string, distDir: string, port: number, env: Record<string, string>): Promise<BenchRow[]> {
  let child: ChildProcess | undefined;
  try {
    child = await startServer(distDir, port, env);
    const base = `http://127.0.0.1:${port}`;
    process.stderr.write(`bench: load ${engine}: creating ${AGENTS} agents…\n`);
    const agents = await populate(base);
    process.stderr.write(`bench: load ${engine}: ${AGENTS} agents for ${SECONDS} s…\n`);
    return rows(engine, await drive(base, agents));
  } catch (err) {
    return [{ benchmark: `load ${engine}`, n: 0, p50: NaN, p95: NaN, notes: `failed: ${err instanceof Error ? err.message : String(err)}` }];
  } finally {
    await stop(child);
  }
}

export const benchLoad: BenchModule = async () => {
  const distDir = ensureBuild();
  return onEachEngine("load", process.env.BENCH_LOAD_ENGINES || "embedded,postgres", FIRST_PORT, (engine, port, env) => runEngine(engine, distDir, port, env));
};
