// `npm run bench -- neighbours`: what one caller's load does to another's, against the production server
// (server.mjs) on the embedded database and, when DATABASE_URL is set, on that PostgreSQL server too
// (migrated first; point it at a scratch database).
//
// A quiet agent retrieves one call at a time (BENCH_NEIGHBOURS_CALLS, default 150, after 20 untimed):
// - idle, alone;
// - beside a runaway agent keeping 64 retrieves in flight with its own key (a refused request is sent
//   again at once, as a runaway loop does): the flood's requests and 429s are counted;
// - during back-to-back 500-turn POST /api/v1/interactions/batch imports from a third key;
// - beside four clients trickling a body a byte a second (slow clients).
// Then, on a server of its own each: 120 connections each sending 10 MB of a 100 MB body to a console
// page (the server's RSS before, at the peak and once they are gone), a battery of malformed and
// cut-off requests (resets before an answer, hangs, 5xx), and SIGTERM after 300 pipelined requests whose
// connection died, beside SIGTERM when idle (time to exit).
// Targets (2-core machine, ratios within one run): the quiet agent's p95 ≤ 3× its idle p95 beside the
// flood, during imports and beside slow clients; RSS back within 100 MB of its start; 0 resets, 0
// hangs, 0 5xx; SIGTERM within 1 s of the idle case.
// BENCH_NEIGHBOURS_PORT (default 3141) is the first of the ports used; BENCH_NEIGHBOURS_ENGINES
// (default "embedded,postgres") which engines run.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import type { BenchModule, BenchRow } from "./measure";
import { BENCH_ADMIN_KEY as ADMIN_KEY, call, ensureBuild, must, newAgent, onEachEngine, percentile, startServer, stop, type Agent } from "./server";

const CALLS = Number(process.env.BENCH_NEIGHBOURS_CALLS || 150);
const WARMUP = 20;
const FIRST_PORT = Number(process.env.BENCH_NEIGHBOURS_PORT || 3141);
const FLOOD = 64;
const TOPICS = ["water heater", "drain cleaning", "invoice", "refund", "onboarding", "escalation", "booking", "pricing", "warranty", "gasket"];

/** A knowledge base and memories for the retrieves to search, through the API. */
async function populate(base: string) {
  const tag = Math.random().toString(36).slice(2, 7);
  for (let i = 0; i < 200; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    await must(base, ADMIN_KEY, "POST", "/api/v1/knowledge", {
      title: `${topic} procedure ${i} (${tag})`,
      content: `When a customer asks about ${topic}, check the account, confirm the ${topic} details and follow step ${i}.`,
      category: "procedure",
    });
  }
  const quiet = await newAgent(base, `Quiet ${tag}`);
  const flooder = await newAgent(base, `Runaway ${tag}`);
  const importer = await newAgent(base, `Importer ${tag}`);
  for (const a of [quiet, flooder]) {
    for (let m = 0; m < 40; m++) {
      const topic = TOPICS[m % TOPICS.length]!;
      await must(base, a.key, "POST", "/api/v1/agents/me/memories", {
        tier: "learning", category: "insight", title: `${topic} lesson ${m}`, content: `What worked for ${topic}: call back within the hour (${m}).`, confidence: 0.8,
      });
    }
  }
  return { quiet, flooder, importer };
}

// scopes given: every call searches the agent's memories and the knowledge base (no trigger verdict of "none")
const retrieve = (base: string, key: string, i: number) =>
  call(base, key, "POST", "/api/v1/retrieve", { message: `What do we know about the ${TOPICS[i % TOPICS.length]} for this customer?`, scopes: ["memories", "knowledge"] });

/** The quiet agent's retrieves, one at a time: sorted latencies in ms (failures counted apart). */
async function quietCalls(base: string, agent: Agent) {
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const t0 = performance.now();
    const r = await retrieve(base, agent.key, i).catch(() => ({ status: 0 }));
    if (r.status !== 200) failed++;
    else if (i >= WARMUP) times.push(performance.now() - t0);
  }
  return { times: times.sort((a, b) => a - b), failed };
}

function quietRow(label: string, q: { times: number[]; failed: number }, idleP95: number | undefined, notes: string): BenchRow {
  const p95 = percentile(q.times, 95);
  const ratio = idleP95 ? `; p95 ${(p95 / idleP95).toFixed(2)}× idle (target ≤ 3×)` : "";
  return { benchmark: label, n: q.times.length, p50: percentile(q.times, 50), p95, notes: `${notes}${ratio}${q.failed ? `; ${q.failed} of the quiet agent's calls failed` : ""}` };
}

/** Runs `background` until `foreground` is done; `background(stop)` should loop while `!stop()`. */
async function beside<T>(background: (stopped: () => boolean) => Promise<unknown>, foreground: () => Promise<T>): Promise<T> {
  let stopped = false;
  const bg = background(() => stopped);
  // let the background load build up first
  await new Promise((r) => setTimeout(r, 1000));
  try {
    return await foreground();
  } finally {
    stopped = true;
    await bg;
  }
}

async function neighbourRows(engine: string, base: string): Promise<BenchRow[]> {
  process.stderr.write(`bench: neighbours ${engine}: populating…\n`);
  const { quiet, flooder, importer } = await populate(base);
  const rows: BenchRow[] = [];

  const idle = await quietCalls(base, quiet);
  const idleP95 = percentile(idle.times, 95);
  rows.push(quietRow(`neighbours ${engine}: quiet agent's retrieve, idle`, idle, undefined, "one call at a time, alone"));

  const flood = { sent: 0, ok: 0, refused: 0, failed: 0 };
  const beside64 = await beside(
    (stopped) =>
      Promise.all(
        Array.from({ length: FLOOD }, async (_, lane) => {
          for (let i = lane; !stopped(); i += FLOOD) {
            flood.sent++;
            const r = await retrieve(base, flooder.key, i).catch(() => ({ status: 0 }));
            if (r.status === 200) flood.ok++;
            else if (r.status === 429) flood.refused++;
            else flood.failed++;
          }
        }),
      ),
    () => quietCalls(base, quiet),
  );
  rows.push(
    quietRow(`neighbours ${engine}: quiet agent's retrieve beside a 64-request flood`, beside64, idleP95,
      `the runaway key sent ${flood.sent}: ${flood.ok} served, ${flood.refused} refused 429, ${flood.failed} failed`),
  );

  const imports = { batches: 0, turns: 0, seconds: 0, failed: 0 };
  const duringImports = await beside(
    async (stopped) => {
      const t0 = performance.now();
      for (let b = 0; !stopped(); b++) {
        const interactions = Array.from({ length: 500 }, (_, i) => ({
          channel: "chat", direction: i % 2 ? "outbound" : "inbound", conversationId: `import-${b}`, externalId: `import-${b}-${i}`,
          content: `Turn ${i} of imported call ${b}: the customer asked about the ${TOPICS[i % TOPICS.length]} and the next visit.`,
        }));
        const r = await call(base, importer.key, "POST", "/api/v1/interactions/batch", { interactions }).catch(() => ({ status: 0 }));
        if (r.status === 201) {
          imports.batches++;
          imports.turns += 500;
        } else imports.failed++;
      }
      imports.seconds = (performance.now() - t0) / 1000;
    },
    () => quietCalls(base, quiet),
  );
  rows.push(
    quietRow(`neighbours ${engine}: quiet agent's retrieve during 500-turn imports`, duringImports, idleP95,
      `${imports.batches} batches back to back (${(imports.turns / imports.seconds).toFixed(0)} turns/s)${imports.failed ? `, ${imports.failed} failed` : ""}`),
  );

  const port = Number(new URL(base).port);
  const slowSockets: net.Socket[] = [];
  const besideSlow = await beside(
    async (stopped) => {
      for (let c = 0; c < 4; c++) {
        const s = net.connect(port, "127.0.0.1");
        s.on("error", () => {});
        s.write("POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n");
        slowSockets.push(s);
      }
      while (!stopped()) {
        for (const s of slowSockets) if (!s.destroyed) s.write("{");
        await new Promise((r) => setTimeout(r, 1000));
      }
      for (const s of slowSockets) s.destroy();
    },
    () => quietCalls(base, quiet),
  );
  rows.push(quietRow(`neighbours ${engine}: quiet agent's retrieve beside 4 slow clients`, besideSlow, idleP95, "four bodies trickling a byte a second"));
  return rows;
}

/** The server's resident memory in MB (the process and its engine thread). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

/** 120 connections each sending 10 MB of a 100 MB body to a console page, then gone. */
async function pageBodies(port: number, pid: number): Promise<BenchRow> {
  const before = rssMb(pid);
  let peak = before;
  let answered = 0;
  const chunk = Buffer.alloc(1024 * 1024, 120);
  await Promise.all(
    Array.from({ length: 120 }, () =>
      new Promise<void>((resolve) => {
        const s = net.connect(port, "127.0.0.1");
        s.on("error", () => resolve());
        s.on("close", () => resolve());
        s.on("data", (d) => {
          if (/^HTTP\/1\.1 \d{3}/.test(d.toString("latin1"))) answered++;
        });
        s.write(`POST /dashboard HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`);
        let sent = 0;
        const pump = () => {
          while (sent < 10 && !s.destroyed) {
            sent++;
            if (!s.write(chunk)) return void s.once("drain", pump);
          }
          peak = Math.max(peak, rssMb(pid));
          s.destroy();
          resolve();
        };
        pump();
      }),
    ),
  );
  // memory given back once they are gone (a collection, then the allocator's own)
  await new Promise((r) => setTimeout(r, 5000));
  const after = rssMb(pid);
  return {
    benchmark: "120 connections × 10 MB of a 100 MB body to a page: RSS MB (p50 after, p95 peak)",
    n: 120,
    p50: after,
    p95: peak,
    notes: `RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} at the peak, ${after.toFixed(0)} after (${(after - before).toFixed(0)} MB more; target ≤ 100); ${answered} answered before the client went`,
  };
}

/** Malformed, oversized, slow and cut-off requests: how many were reset before an answer, hung, or got a 5xx. */
async function battery(port: number, key: string): Promise<BenchRow> {
  const base = `http://127.0.0.1:${port}`;
  let resets = 0;
  let hangs = 0;
  let fivexx = 0;
  let n = 0;
  const big = JSON.stringify({ message: "x".repeat(3_000_000) });
  const timed = async (p: Promise<Response>) => {
    n++;
    try {
      const r = await Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error("hang")), 15_000))]);
      await r.arrayBuffer();
      if (r.status >= 500) fivexx++;
    } catch (err) {
      if ((err as Error).message === "hang") hangs++;
      else resets++;
    }
  };
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  for (let round = 0; round < 10; round++) {
    await timed(fetch(`${base}/api/v1/retrieve`, { method: "POST", headers, body: big }));
    await timed(fetch(`${base}/api/v1/agents/me`, { headers }));
    await timed(fetch(`${base}/api/v1/clients`, { method: "POST", headers: { ...headers, authorization: "Bearer mhq_not_a_key_at_all_0000000000000000" }, body: "y".repeat(900_000) }));
    await timed(fetch(`${base}/api/v1/agents/me`, { headers }));
  }
  const raw = async (text: string) => {
    n++;
    const got = await new Promise<string | null>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      let out = "";
      s.on("data", (d) => (out += d));
      s.on("error", () => resolve(out || null));
      s.on("close", () => resolve(out || null));
      s.write(text);
      setTimeout(() => (s.destroy(), resolve(out ? out : "hang")), 15_000);
    });
    if (got === null) resets++;
    else if (got === "hang") hangs++;
    else if (/^HTTP\/1\.1 5\d\d/.test(got)) fivexx++;
  };
  for (const host of ["a b", "[", "%zz", "x:99999", "x?y=1", "x/y"]) await raw(`GET /api/v1/agents/me HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
  await raw("OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  await raw(`POST /api/v1/retrieve HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Length: 3000000\r\nExpect: 100-continue\r\n\r\n`);
  await raw("POST /api/v1/retrieve HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
  return { benchmark: "malformed, oversized and refused requests", n, p50: NaN, p95: NaN, notes: `${resets} reset before an answer, ${hangs} hung, ${fivexx} answered 5xx (targets 0, 0, 0)` };
}

/** SIGTERM to a server (idle, or after 300 pipelined requests whose connection died): ms until it exited. */
async function sigtermAfter(child: ChildProcess, port: number, key: string | null): Promise<number> {
  if (key) {
    const body = JSON.stringify({ message: "What did the customer say about the boiler?" });
    const one = `POST /api/v1/retrieve HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const s = net.connect(port, "127.0.0.1");
    s.on("error", () => {});
    s.write(one.repeat(300));
    await new Promise((r) => setTimeout(r, 500));
    s.destroy();
  }
  const exited = new Promise((r) => child.once("exit", r));
  const t0 = performance.now();
  process.kill(child.pid!, "SIGTERM");
  await exited;
  return performance.now() - t0;
}

async function runEngine(engine: string, distDir: string, port: number, env: Record<string, string>): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let child: ChildProcess | undefined;
  try {
    child = await startServer(distDir, port, env);
    const base = `http://127.0.0.1:${port}`;
    rows.push(...(await neighbourRows(engine, base)));
    const probe = await newAgent(base, `Prober ${Math.random().toString(36).slice(2, 7)}`);
    const malformed = await battery(port, probe.key);
    malformed.benchmark = `neighbours ${engine}: ${malformed.benchmark}`;
    rows.push(malformed);
    const page = await pageBodies(port, child.pid!);
    page.benchmark = `neighbours ${engine}: ${page.benchmark}`;
    rows.push(page);
    await stop(child);
    // SIGTERM, idle and after pipelined disconnects, on fresh servers of the same data
    const idleMs = await sigtermAfter(await startServer(distDir, port, env), port, null);
    child = await startServer(distDir, port, env);
    const piper = await newAgent(base, `Piper ${Math.random().toString(36).slice(2, 7)}`);
    const pipelinedMs = await sigtermAfter(child, port, piper.key);
    rows.push({
      benchmark: `neighbours ${engine}: SIGTERM to exit, ms (p50 idle, p95 after 300 pipelined requests on a dead connection)`,
      n: 2,
      p50: idleMs,
      p95: pipelinedMs,
      notes: `${(pipelinedMs - idleMs).toFixed(0)} ms more than idle (target ≤ 1000)`,
    });
  } catch (err) {
    rows.push({ benchmark: `neighbours ${engine}`, n: 0, p50: NaN, p95: NaN, notes: `failed: ${err instanceof Error ? err.message : String(err)}` });
  } finally {
    await stop(child);
  }
  return rows;
}

export const benchNeighbours: BenchModule = async () => {
  const distDir = ensureBuild();
  return onEachEngine("neighbours", process.env.BENCH_NEIGHBOURS_ENGINES || "embedded,postgres", FIRST_PORT, (engine, port, env) => runEngine(engine, distDir, port, env));
};
