// Runs the embedded database (PGlite) in a worker thread of this process, reached by the app through
// postgres.js over a Unix socket — the same driver and protocol as a server database. See
// docs/OPERATIONS.md ("The embedded database").
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";

/**
 * Starts the engine thread on `dataDir` (created by PGlite when missing). Resolves once it listens.
 * `onExit` is called if the thread dies on its own (the server cannot go on without its database).
 */
export async function startEmbeddedEngine({ dataDir, sharedBuffers, onExit }) {
  // a private folder (mode 0700) for the socket: no other local user can connect to the database
  const socketDir = mkdtempSync(path.join(os.tmpdir(), "mhq-engine-"));
  const socketPath = path.join(socketDir, ".s.PGSQL.5432");
  const worker = new Worker(new URL("./worker.mjs", import.meta.url), {
    workerData: { dataDir, socketPath, sharedBuffers },
  });
  let closing = false;
  let seq = 0;
  const pending = new Map();
  worker.on("message", (msg) => {
    if (msg.id === undefined) return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.ok) p?.resolve(msg);
    else p?.reject(new Error(msg.error));
  });
  await new Promise((resolve, reject) => {
    worker.once("message", (msg) => (msg.ready ? resolve() : reject(new Error("engine: unexpected first message"))));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`engine thread exited with ${code} while starting`)));
  });
  worker.on("error", (err) => console.error("[memory-hq] embedded database thread failed:", err));
  worker.on("exit", (code) => {
    rmSync(socketDir, { recursive: true, force: true });
    for (const p of pending.values()) p.reject(new Error("embedded database thread exited"));
    pending.clear();
    if (!closing) onExit?.(code);
  });
  const request = (op, extra = {}) =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, ...extra });
    });
  return {
    socketPath,
    /** A snapshot of the data directory as a (gzip'd tar) file: PGlite's dumpDataDir, run in the engine thread. */
    async dumpDataDir(compression = "gzip") {
      const { data, name } = await request("dump", { compression });
      return { name, data: new Uint8Array(data) };
    },
    /** Stops serving, shuts Postgres down cleanly and ends the thread. */
    async close() {
      if (closing) return;
      closing = true;
      try {
        await request("close");
      } finally {
        await worker.terminate();
      }
    },
  };
}
