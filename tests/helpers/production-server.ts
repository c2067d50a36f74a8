import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";

// The production server (server.mjs) of the build in NEXT_DIST_DIR, started for a test: on the embedded
// database in a temporary DATA_DIR, or on `databaseUrl`. Tests that need it run after `next build`
// (TEST_SERVER_BUILD=1, as npm test's server steps set it).

export interface ProductionServer {
  base: string;
  port: number;
  child: ChildProcess;
  /** what the server printed (its shutdown reports); its errors are shown as they come too */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (or `signal`), then waits for the exit and removes the data folder */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * This process's environment for a server it starts, as deployed: never a test runner's (VITEST_*
 * would keep the server's janitor and timers off), less `drop` (a name, or a prefix ending in "_").
 */
export function deployedEnv(drop: string[] = []): Record<string, string | undefined> {
  const dropped = (k: string) => k.startsWith("VITEST") || drop.some((d) => (d.endsWith("_") ? k.startsWith(d) : k === d));
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !dropped(k)));
}

export async function startProductionServer(opts: {
  port: number;
  env?: Record<string, string>;
  databaseUrl?: string;
  /** what counts as started: healthy (the default), or answering at all (a database not yet migrated answers 503) */
  until?: "healthy" | "answering";
}): Promise<ProductionServer> {
  expect(existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID")), "run next build first").toBe(true);
  const base = `http://127.0.0.1:${opts.port}`;
  // a server left over on the port would answer in this one's place
  const taken = await fetch(`${base}/api/health`).then(() => true, () => false);
  expect(taken, `port ${opts.port} is in use`).toBe(false);
  const dataDir = opts.databaseUrl ? undefined : await mkdtemp(path.join(os.tmpdir(), "mhq-server-"));
  const inherited = deployedEnv(["ADMISSION_", "OTEL_", "MHQ_VERIFY_RESPONSES", "DATABASE_URL"]);
  const child = spawn(process.execPath, ["server.mjs", "-p", String(opts.port), "-H", "127.0.0.1"], {
    env: {
      ...inherited,
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : { DATABASE_URL: "", DATA_DIR: dataDir! }),
      NODE_ENV: "production",
      SEED_DEMO: "false",
      EMBEDDINGS_PROVIDER: "local",
      CONSOLIDATE_SCHEDULER: "false",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // its own process group: stopping it ends it and only it
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => {
    output += d;
    process.stderr.write(d);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  // generous: the first start migrates an empty embedded database, slow on a busy machine
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server.mjs exited with ${child.exitCode}`);
    if (await fetch(`${base}/api/health`).then((r) => r.ok || opts.until === "answering", () => false)) break;
    if (Date.now() > deadline) throw new Error("server.mjs did not become healthy");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    port: opts.port,
    child,
    output: () => output,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.pid && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          /* already gone */
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 35_000))]);
      }
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A raw HTTP exchange: writes `chunks` (each after `gapMs`) on one connection and collects what comes back until it closes or `waitMs` passes. */
export function rawExchange(port: number, chunks: (string | Buffer)[], opts: { waitMs?: number; gapMs?: number; until?: (received: string) => boolean } = {}) {
  return new Promise<{ text: string; closed: boolean; socket: net.Socket }>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let settled = false;
    const done = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ text, closed, socket });
    };
    socket.on("data", (d) => {
      text += d.toString("latin1");
      if (opts.until?.(text)) done(false);
    });
    socket.on("error", () => {});
    socket.on("close", () => done(true));
    const timer = setTimeout(() => done(false), opts.waitMs ?? 10_000);
    void (async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
      }
    })();
  });
}

/** The status codes of every response in a raw exchange's text, in order (a body with a length runs straight into the next status line). */
export const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
