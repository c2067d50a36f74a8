import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployedEnv } from "../helpers/production-server";

// kill -9 of the production server (server.mjs, embedded database) while transcripts are imported
// with POST /interactions/batch: every batch it acknowledged is there whole after the restart, no
// batch is there in part, nothing it was storing stays behind, and resending the batches it did
// not acknowledge stores each turn once. Needs the production build: `npm test` runs this after
// `next build` (TEST_SERVER_BUILD=1); elsewhere it is skipped.
const ENABLED = process.env.TEST_SERVER_BUILD === "1";
const PORT = Number(process.env.TEST_IMPORT_CRASH_PORT ?? 3129);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_KEY = "import-crash-admin-key-0123456789ab";
const BATCHES = 8;
const TURNS = 150;

let dataDir: string;
let server: ChildProcess | undefined;

async function call(key: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${BASE}${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function start() {
  server = spawn(process.execPath, ["server.mjs", "-p", String(PORT), "-H", "127.0.0.1"], {
    env: {
      ...deployedEnv(["ADMISSION_", "MHQ_VERIFY_RESPONSES"]),
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      SEED_DEMO: "false",
      ADMIN_API_KEY: ADMIN_KEY,
      EMBEDDINGS_PROVIDER: "local",
      CONSOLIDATE_SCHEDULER: "false",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server.mjs exited with ${server.exitCode}`);
    if (await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error("server.mjs did not become healthy");
    await new Promise((r) => setTimeout(r, 250));
  }
}

const batch = (b: number) =>
  Array.from({ length: TURNS }, (_, i) => ({
    channel: "chat",
    direction: i % 2 ? "outbound" : "inbound",
    speaker: i % 2 ? "Alex" : "Sam",
    content: `Batch ${b}, turn ${i}: about the boiler, the invoice and the weekend (${b * TURNS + i})`,
    occurredAt: new Date(Date.UTC(2026, 0, 1 + b, 0, i)).toISOString(),
    conversationId: `crash-${b}`,
    externalId: `crash-${b}-${i}`,
  }));

/** The agent's visible turns by externalId, through the API (every page). */
async function listed(agentId: string) {
  const seen = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { interactions: { id: string; externalId: string }[]; nextCursor: string | null } } = await call(
      ADMIN_KEY,
      "GET",
      `/api/v1/interactions?agentId=${agentId}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(page.status).toBe(200);
    for (const i of page.body.interactions) {
      expect(seen.has(i.externalId), `${i.externalId} listed twice`).toBe(false);
      seen.set(i.externalId, i.id);
    }
    cursor = page.body.nextCursor;
  } while (cursor);
  return seen;
}

describe.runIf(ENABLED)("kill -9 of server.mjs during batch imports (embedded database) — TEST_SERVER_BUILD=1 after next build", () => {
  beforeAll(async () => {
    expect(existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID")), "run next build first").toBe(true);
    dataDir = await mkdtemp(path.join(os.tmpdir(), "mhq-import-crash-"));
    await start();
  }, 360_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) server.kill("SIGKILL");
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps every acknowledged batch whole, none in part, and stores each resent turn once", async () => {
    const created = await call(ADMIN_KEY, "POST", "/api/v1/agents", { name: "Crash Importer", kind: "internal", role: "orchestrator" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const agentId: string = created.body.agent.id;
    const { key } = (await call(ADMIN_KEY, "POST", `/api/v1/agents/${agentId}/keys`, { label: "crash" })).body;

    // two importers, back to back; the server is killed once two batches are acknowledged
    const acked = new Map<number, { id: string; externalId: string }[]>();
    let next = 0;
    let killed = false;
    const importer = async () => {
      while (next < BATCHES && !killed) {
        const b = next++;
        const res = await call(key, "POST", "/api/v1/interactions/batch", { interactions: batch(b) }).catch(() => ({ status: 0, body: null }));
        if (res.status === 201) acked.set(b, res.body.interactions);
        if (acked.size >= 2 && !killed) {
          killed = true;
          server!.kill("SIGKILL");
        }
      }
    };
    const exited = new Promise((r) => server!.once("exit", r));
    await Promise.all([importer(), importer()]);
    await exited;
    expect(acked.size).toBeGreaterThanOrEqual(2);
    const sent = next;

    await start();
    const after = await listed(agentId);
    // every acknowledged batch whole, with the ids it was answered
    for (const [, items] of acked) for (const i of items) expect(after.get(i.externalId)).toBe(i.id);
    // every other batch sent: whole (stored before the kill, its answer lost) or not at all
    for (let b = 0; b < sent; b++) {
      const present = batch(b).filter((t) => after.has(t.externalId)).length;
      expect([0, TURNS], `batch ${b}: ${present} of ${TURNS} turns visible`).toContain(present);
    }

    // resending what was not acknowledged stores each turn once
    for (let b = 0; b < BATCHES; b++) {
      if (acked.has(b)) continue;
      const res = await call(key, "POST", "/api/v1/interactions/batch", { interactions: batch(b) });
      expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
    }
    const final = await listed(agentId);
    expect(final.size).toBe(BATCHES * TURNS);

    // in the files: nothing of the batches being stored at the kill is left
    server!.kill("SIGTERM");
    await new Promise((r) => server!.once("exit", r));
    const pg = await PGlite.create(path.join(dataDir, "pglite"), { extensions: { vector } });
    try {
      const { rows } = await pg.query<{ n: number }>("select count(*)::int as n from interactions where agent_id = $1", [agentId]);
      expect(rows[0]!.n).toBe(BATCHES * TURNS);
      const left = (await pg.query("select id, state, turns, lease_until from interaction_batches")).rows;
      expect(left, `batches left: ${JSON.stringify(left)}`).toEqual([]);
    } finally {
      await pg.close();
    }
  }, 600_000);
});
