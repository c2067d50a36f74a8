// What the benches that run against the production server (server.mjs) share: a build, a server of it
// in its own process group, calls as an agent makes them, percentiles.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BenchRow } from "./measure";

export const BENCH_ADMIN_KEY = "bench-load-admin-key-0123456789";

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The production build the server serves (`next build` first when there is none). */
export function ensureBuild(): string {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (existsSync(path.join(distDir, "BUILD_ID"))) return distDir;
  const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
  process.stderr.write(`bench: no production build in ${distDir}, running next build…\n`);
  const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_DIST_DIR: distDir } });
  if (build.status !== 0) throw new Error(`next build exited with ${build.status}`);
  return distDir;
}

/** An API call as an agent's code makes it (Node's fetch), with the server's Server-Timing split. */
export async function call(base: string, key: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const timing = res.headers.get("server-timing") ?? "";
  const dur = (name: string) => Number(new RegExp(`${name};dur=([\\d.]+)`).exec(timing)?.[1] ?? NaN);
  return { status: res.status, body: text ? JSON.parse(text) : null, queueMs: dur("queue"), appMs: dur("app"), headers: res.headers };
}

/** `call`, failing on anything but a 2xx. */
export async function must(base: string, key: string, method: string, p: string, body?: unknown) {
  const r = await call(base, key, method, p, body);
  if (r.status >= 300) throw new Error(`${method} ${p} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export interface Agent {
  id: string;
  key: string;
}

/** An internal orchestrator agent made through the API, and a key for it. */
export async function newAgent(base: string, name: string): Promise<Agent> {
  const agent = (await must(base, BENCH_ADMIN_KEY, "POST", "/api/v1/agents", { name, kind: "internal", role: "orchestrator" })).agent;
  const { key } = await must(base, BENCH_ADMIN_KEY, "POST", `/api/v1/agents/${agent.id}/keys`, { label: "bench" });
  return { id: agent.id, key };
}

/**
 * server.mjs (or, with BENCH_LOAD_SERVER=next, plain `next start`) on `port`, in its own process
 * group, once it answers its health check. `env` adds to (and `DATABASE_URL` in it replaces) the bench's.
 */
export async function startServer(distDir: string, port: number, env: Record<string, string>): Promise<ChildProcess> {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  // BENCH_LOAD_SERVER=next: plain `next start` instead (the app in one thread, admission in the route
  // wrapper, the embedded database on the request thread), to compare with what server.mjs changes
  const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
  const command = process.env.BENCH_LOAD_SERVER === "next" ? [nextBin, "start"] : ["server.mjs"];
  const nodeArgs = (process.env.BENCH_LOAD_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...command, "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...base, NEXT_DIST_DIR: distDir, NODE_ENV: "production", EMBEDDINGS_PROVIDER: "local", SEED_DEMO: "false", ADMIN_API_KEY: BENCH_ADMIN_KEY, CONSOLIDATE_SCHEDULER: "false", ...env },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error("the server did not become healthy in 120 s");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** SIGTERM to the server's process group; resolves once it has exited (its shutdown writes to DATA_DIR). */
export async function stop(child: ChildProcess | undefined) {
  if (!child?.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    /* already gone */
  }
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise((r) => {
      const timer = setTimeout(r, 35_000);
      child.once("exit", () => {
        clearTimeout(timer);
        r(undefined);
      });
    });
  }
}

/** Migrates the server database at `url` (the benches run against DATABASE_URL when it is set). */
export async function migrateServerDatabase(url: string) {
  const { openPostgres } = await import("@/lib/db/postgres");
  const { migrate } = await import("@/lib/db/migrate");
  const db = openPostgres(url, { max: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}

/**
 * A production-server bench's rows on each engine `engines` names ("embedded,postgres"): the embedded
 * database in a fresh folder on `firstPort`, and the server database on `firstPort + 1` when
 * BENCH_SERVER_DATABASE_URL is set (bench/index.ts hides DATABASE_URL from the modules and hands it on
 * there), migrated first. `run` gets the server's environment to add.
 */
export async function onEachEngine(
  name: string,
  engines: string,
  firstPort: number,
  run: (engine: "embedded" | "postgres", port: number, env: Record<string, string>) => Promise<BenchRow[]>,
): Promise<BenchRow[]> {
  const wanted = engines.split(",").map((e) => e.trim());
  const out: BenchRow[] = [];
  if (wanted.includes("embedded")) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `mhq-bench-${name}-`));
    try {
      out.push(...(await run("embedded", firstPort, { DATA_DIR: dataDir })));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  const serverUrl = process.env.BENCH_SERVER_DATABASE_URL;
  if (serverUrl && wanted.includes("postgres")) {
    await migrateServerDatabase(serverUrl);
    out.push(...(await run("postgres", firstPort + 1, { DATABASE_URL: serverUrl })));
  }
  return out;
}
