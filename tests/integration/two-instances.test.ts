import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/types";
import { createServerDatabase, transport, type TestDatabase } from "../helpers/db";
import { deployedEnv } from "../helpers/production-server";

// The scale-out docs/OPERATIONS.md promises: two instances of the production server (server.mjs) on one real
// PostgreSQL database migrated by `npm run db:migrate` as a non-superuser owner, driven by agents
// through both at once. Every invariant the single-instance concurrency tests check must hold
// across instances: shared state lives in Postgres. `npm test` runs this as its own step after the
// build (TEST_TWO_INSTANCES=1); elsewhere it is skipped.
const ENABLED = transport === "postgres" && process.env.TEST_TWO_INSTANCES === "1";
const reason = "two next start instances on real PostgreSQL: TEST_TRANSPORT=postgres TEST_TWO_INSTANCES=1 after next build (npm test's two-instances step)";
const PORTS = (process.env.TEST_TWO_INSTANCES_PORTS ?? "3123,3124").split(",").map(Number);
const ADMIN_KEY = "two-instances-admin-key-0123456789";

let database: TestDatabase;
let db: Database;
const servers: ChildProcess[] = [];
const bases = PORTS.map((p) => `http://127.0.0.1:${p}`);

async function call(base: string, key: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const A = (key: string, method: string, p: string, body?: unknown) => call(bases[0]!, key, method, p, body);
/** the i-th of several concurrent calls goes to instance i mod 2 */
const either = (i: number, key: string, method: string, p: string, body?: unknown) => call(bases[i % 2]!, key, method, p, body);
const count = (rs: { status: number }[], s: number) => rs.filter((r) => r.status === s).length;

async function agent(input: Record<string, unknown>) {
  const created = await A(ADMIN_KEY, "POST", "/api/v1/agents", { name: `Two ${Math.random().toString(36).slice(2, 8)}`, ...input });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const key = await A(ADMIN_KEY, "POST", `/api/v1/agents/${created.body.agent.id}/keys`, { label: "two instances" });
  return { id: created.body.agent.id as string, key: key.body.key as string };
}

describe.runIf(ENABLED)(`two app instances on one database — ${reason}`, () => {
  let client: string;
  let manager: { id: string; key: string };
  let writer: { id: string; key: string };
  let field: { id: string; key: string };

  beforeAll(async () => {
    database = await createServerDatabase({ migrate: false });
    db = database.db;
    const env: NodeJS.ProcessEnv = { ...deployedEnv(), DATABASE_URL: database.url!, NODE_ENV: "production" };
    const migrated = spawnSync("npm", ["run", "--silent", "db:migrate"], { env, encoding: "utf8" });
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/Applied \d+ migration/);

    expect(existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID")), "run next build first").toBe(true);
    for (const port of PORTS) {
      servers.push(
        spawn(process.execPath, ["server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
          env: { ...env, ADMIN_API_KEY: ADMIN_KEY, EMBEDDINGS_PROVIDER: "local", DATABASE_POOL_MAX: "5", CONSOLIDATE_SCHEDULER: "false" },
          stdio: ["ignore", "ignore", "inherit"],
          detached: true,
        }),
      );
    }
    for (const base of bases) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`${base} did not become healthy`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    client = (await A(ADMIN_KEY, "POST", "/api/v1/clients", { name: "Two Instances Co" })).body.client.id;
    manager = await agent({ kind: "internal", role: "manager" });
    writer = await agent({ kind: "internal", role: "specialist", kbAccess: "write" });
    field = await agent({ kind: "field", role: "specialist", clientId: client });
  }, 180_000);

  afterAll(async () => {
    for (const s of servers) {
      // each server runs in its own process group: end that group, and only it
      if (s.pid && s.exitCode === null) {
        try {
          process.kill(-s.pid, "SIGTERM");
        } catch {
          /* already gone */
        }
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    await database?.close();
  });

  it("one winner among expectedVersion writers on both instances (documents and knowledge)", async () => {
    const doc = "/api/v1/agents/me/documents/working";
    const first = await A(writer.key, "PUT", doc, { content: "v1" });
    const docs = await Promise.all(Array.from({ length: 10 }, (_, i) => either(i, writer.key, "PUT", doc, { content: `w${i}`, expectedVersion: first.body.version })));
    expect([count(docs, 200), count(docs, 409)]).toEqual([1, 9]);

    const entry = await A(writer.key, "POST", "/api/v1/knowledge", { title: "Shared edit", content: "v1", category: "procedure" });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    const edits = await Promise.all(
      Array.from({ length: 10 }, (_, i) => either(i, writer.key, "PATCH", `/api/v1/knowledge/${entry.body.entry.id}`, { content: `w${i}`, expectedVersion: entry.body.entry.version })),
    );
    expect([count(edits, 200), count(edits, 409)]).toEqual([1, 9]);
  });

  it("keeps the 200-active-memory cap with writes arriving through both instances", async () => {
    const a = await agent({ kind: "internal", role: "specialist" });
    await db.query(
      `insert into memories (agent_id, tier, category, title, confidence) select $1, 'learning', 'insight', 'filler ' || g, 0.5 from generate_series(1, 195) g`,
      [a.id],
    );
    const writes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => either(i, a.key, "POST", "/api/v1/agents/me/memories", { tier: "learning", category: "insight", title: `both ${i}`, confidence: 0.9 })),
    );
    expect(count(writes, 201)).toBe(30);
    const [row] = await db.query<{ n: number }>(`select count(*)::int as n from memories where agent_id = $1 and scope = 'agent' and status = 'active'`, [a.id]);
    expect(row!.n).toBe(200);
  });

  it("the manager pass on both instances at once approves each suggestion once", async () => {
    const contact = (await A(manager.key, "POST", "/api/v1/contacts", { name: "Both Person", clientId: client })).body.contact.id;
    const ids: string[] = [];
    for (const key of ["preferred_time", "water_heater", "dog_name", "roof_type", "gate_hint", "parking"]) {
      const s = await A(field.key, "POST", "/api/v1/suggestions", { contactId: contact, key, value: `${key} value`, confidence: 0.95 });
      expect(s.status, JSON.stringify(s.body)).toBe(201);
      ids.push(s.body.suggestion.id);
    }
    const passes = await Promise.all(Array.from({ length: 4 }, (_, i) => either(i, manager.key, "POST", "/api/v1/review/run", {})));
    expect(passes.map((p) => p.status)).toEqual([200, 200, 200, 200]);
    const approved = passes.flatMap((p) => p.body.items.filter((i: { outcome: string }) => i.outcome === "approved").map((i: { id: string }) => i.id));
    expect(approved.sort()).toEqual([...ids].sort());
  });

  it("serves searches through both instances without errors and counts every access once, folded by either", async () => {
    const topic = `zq${Math.floor(Math.random() * 1e6)}${Math.random().toString(36).slice(2, 6)}`; // a digit keeps it unstemmed
    const entries: string[] = [];
    for (let i = 0; i < 8; i++) {
      const e = await A(writer.key, "POST", "/api/v1/knowledge", { title: `${topic} step ${i}`, content: `How to handle ${topic}, case ${i}`, category: "procedure" });
      entries.push(e.body.entry.id);
    }
    const [before] = await db.query<{ n: number }>(`select coalesce(sum(accessed_count), 0)::int as n from knowledge_entries where id = any ($1::uuid[])`, [entries]);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? either(i >> 1, field.key, "GET", `/api/v1/knowledge?q=${encodeURIComponent(`${topic} handle`)}&limit=20`)
          : either(i >> 1, writer.key, "POST", "/api/v1/retrieve", { message: `How do we handle ${topic}?`, scopes: ["knowledge"] }),
      ),
    );
    expect(results.filter((r) => r.status !== 200).map((r) => JSON.stringify(r.body))).toEqual([]);
    const served = results
      .flatMap((r) => (r.body.entries ?? r.body.items) as { id: string }[])
      .filter((e) => entries.includes(e.id)).length;
    expect(served).toBeGreaterThan(40);
    // each instance folds what it recorded about a second later; no instance keeps counts in memory
    let pending = -1;
    for (let i = 0; i < 40 && pending !== 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      pending = (await db.query<{ n: number }>("select count(*)::int as n from access_events"))[0]!.n;
    }
    expect(pending).toBe(0);
    const [after] = await db.query<{ n: number }>(`select coalesce(sum(accessed_count), 0)::int as n from knowledge_entries where id = any ($1::uuid[])`, [entries]);
    expect(after!.n - before!.n).toBe(served);
  });

  it("a name added through one instance reaches the other's smart trigger at once (no stale vocabulary)", async () => {
    const name = `Zephyrine Quarry ${Math.random().toString(36).slice(2, 6)}`;
    // instance B compiles and keeps the manager's vocabulary
    const before = await call(bases[1]!, manager.key, "POST", "/api/v1/trigger", { message: `Any news from ${name}?` });
    // (the message may fire other triggers, such as a capitalised word; never the client's full name yet)
    expect(before.body.triggers).not.toContainEqual({ kind: "name", match: name });
    expect((await A(ADMIN_KEY, "POST", "/api/v1/clients", { name })).status).toBe(201);
    const after = await call(bases[1]!, manager.key, "POST", "/api/v1/trigger", { message: `Any news from ${name}?` });
    expect(after.body.triggers).toContainEqual({ kind: "name", match: name });
  });

  it("an agent's own limits, set through one instance, hold on both; each instance counts its callers' requests on its own", async () => {
    const limited = await agent({ kind: "internal", role: "specialist" });
    const set = await A(ADMIN_KEY, "PATCH", `/api/v1/agents/${limited.id}`, { limits: { requestsPerSecond: 1, burst: 2 } });
    expect(set.status).toBe(200);
    // the other instance shows them too: they are stored with the agent
    const seen = await call(bases[1]!, limited.key, "GET", "/api/v1/agents/me");
    expect(seen.body.agent.limits).toMatchObject({ requestsPerSecond: 1, burst: 2 });
    // on each instance: the key's first request learns the limits, then the burst of 2, then 429
    // (a refusal is answered after a pause until the key's next token, so the calls stop at the first)
    const burst = async (base: string, calls: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < calls; i++) {
        const res = await fetch(`${base}/api/v1/agents/me`, { headers: { authorization: `Bearer ${limited.key}` } });
        statuses.push(res.status);
        if (res.status === 429) expect(res.headers.get("ratelimit-policy")).toMatch(/^"rate";q=2;w=2, /);
        await res.arrayBuffer();
      }
      return statuses;
    };
    // instance B learnt them with the call above; instance A with its first call here
    expect(await burst(bases[1]!, 3)).toEqual([200, 200, 429]);
    expect(await burst(bases[0]!, 4)).toEqual([200, 200, 200, 429]);
  });

  it("opt-out on one instance racing suggestions on the other leaves nothing about the contact", async () => {
    for (let round = 0; round < 3; round++) {
      const contact = (await A(manager.key, "POST", "/api/v1/contacts", { name: `Leaving ${round}`, clientId: client })).body.contact.id;
      const writes = Array.from({ length: 8 }, (_, i) =>
        either(i, field.key, "POST", "/api/v1/suggestions", { contactId: contact, key: `k_${i}`, value: `v${i}`, confidence: 0.8 }),
      );
      writes.splice(3, 0, call(bases[1]!, manager.key, "POST", `/api/v1/contacts/${contact}/opt-out`));
      const results = await Promise.all(writes);
      expect(results.filter((r) => ![201, 200, 409].includes(r.status)).map((r) => r.status)).toEqual([]);
      const [left] = await db.query<{ n: number }>("select count(*)::int as n from memory_suggestions where contact_id = $1", [contact]);
      expect(left!.n).toBe(0);
    }
  });
});
