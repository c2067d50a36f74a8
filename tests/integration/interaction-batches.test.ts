// A batch of interactions is stored in short steps and published at once: nothing of it is visible
// midway, to anyone, by the API or in the database; a batch that fails or whose process stops
// leaves nothing; a retry racing its first attempt stores every turn once.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { leftoverBatches } from "@/lib/memories/batch-queries";
import { releaseBatchesOfStoppedProcess, runBatchJanitor, setBatchStepHookForTests } from "@/lib/memories/interaction-batches";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, rareWord, type TestAgent } from "../helpers/fixtures";
import { api } from "../helpers/api";

const turn = (content: string, over: Record<string, unknown> = {}) => ({
  channel: "chat",
  direction: "inbound",
  speaker: "Dana",
  content,
  occurredAt: "2026-03-02T14:00:00Z",
  ...over,
});

/** Enough turns for several steps (a step takes a few turns at first). */
const transcript = (word: string, n = 40, prefix = randomUUID()) =>
  Array.from({ length: n }, (_, i) => ({ ...turn(`turn ${i} about ${word}`), externalId: `${prefix}-${i}`, conversationId: `thread-${prefix}` }));

const agentCaller = (a: TestAgent, role: "manager" | "orchestrator" | "specialist", kind: "internal" | "field" = "internal"): Caller => ({
  type: "agent",
  agentId: a.id,
  name: a.name,
  kind,
  role,
  clientId: a.clientId,
  kbAccess: "read",
});
const hqAdmin: Caller = { type: "hq", userId: null, name: "hq", email: null, role: "admin" };

/** Rows of the agent, physically there (as the owning role, past RLS). */
async function stored(agentId: string) {
  const [row] = await (await getDatabase()).query<{ n: number; hidden: number }>(
    `select count(*)::int as n, count(*) filter (where batch_id is not null and batch_id = any (mhq.hidden_interaction_batches()))::int as hidden
       from interactions where agent_id = $1`,
    [agentId],
  );
  return row!;
}

/** What `caller` reads of the agent's interactions in the database itself, under RLS. */
async function visibleTo(caller: Caller, agentId: string) {
  const rows = await withClaims(await getDatabase(), claimsFor(caller), (tx) =>
    tx.query<{ n: number }>("select count(*)::int as n from interactions where agent_id = $1", [agentId]),
  );
  return rows[0]!.n;
}

/** A gate the step hook waits at, once, after the first step named `at`. */
function pauseAt(at: string) {
  let release!: () => void;
  let reached!: (batchId: string) => void;
  const opened = new Promise<void>((r) => (release = r));
  const paused = new Promise<string>((r) => (reached = r));
  let done = false;
  setBatchStepHookForTests(async (step, batchId) => {
    if (done || step !== at) return;
    done = true;
    reached(batchId);
    await opened;
  });
  return { paused, release };
}

afterEach(() => setBatchStepHookForTests(undefined));

describe("a batch stored in steps", () => {
  it("is invisible to every reader until it is published, then visible whole; the batch row is its agent's alone", async () => {
    const manager = await createAgent({ kind: "internal", role: "manager" });
    const other = await createAgent({ kind: "internal", role: "manager" });
    const viewer = await createHqUser("viewer");
    const word = rareWord();
    const items = transcript(word);
    // a name one turn mentions joins the agent's trigger vocabulary when the batch is published
    const named = `Ka${Array.from({ length: 6 }, () => "bcdfghjklmnprstvz"[Math.floor(Math.random() * 17)]).join("")}`;
    items[5]!.content = `turn 5 about ${word} with ${named}`;
    const heard = async () =>
      (await (await getDatabase()).query("select 1 from agent_people where agent_id = $1 and name = $2", [manager.id, named])).length;
    const gate = pauseAt("store");
    const posting = as(manager.key).post("/api/v1/interactions/batch", { interactions: items });
    const batchId = await gate.paused;

    // some turns are written and indexed: none shows
    const midway = await stored(manager.id);
    expect(midway.n).toBeGreaterThan(0);
    expect(midway.hidden).toBe(midway.n);
    expect((await as(manager.key).get(`/api/v1/interactions?agentId=${manager.id}`)).body.interactions).toEqual([]);
    expect((await api("GET", `/api/v1/interactions?agentId=${manager.id}`, { cookie: viewer.cookie })).body.interactions).toEqual([]);
    const found = await as(manager.key).post("/api/v1/retrieve", { message: `What about ${word}?`, scopes: ["interactions"] });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.items).toEqual([]);
    expect(await visibleTo(agentCaller(manager, "manager"), manager.id)).toBe(0);
    expect(await visibleTo(hqAdmin, manager.id)).toBe(0);
    expect(await heard()).toBe(0);

    // the batch's row: its agent's own; no one else reads, changes, publishes or indexes it
    const db = await getDatabase();
    const asOwner = (sql: string, params: unknown[] = []) => withClaims(db, claimsFor(agentCaller(manager, "manager")), (tx) => tx.query(sql, params));
    const asOther = (sql: string, params: unknown[] = []) => withClaims(db, claimsFor(agentCaller(other, "manager")), (tx) => tx.query(sql, params));
    const asHq = (sql: string, params: unknown[] = []) => withClaims(db, claimsFor(hqAdmin), (tx) => tx.query(sql, params));
    expect(await asOwner("select id from interaction_batches")).toEqual([{ id: batchId }]);
    expect(await asOther("select id from interaction_batches")).toEqual([]);
    expect(await asHq("select id from interaction_batches")).toEqual([]);
    expect(await asOther("update interaction_batches set state = 'abandoned' where id = $1 returning id", [batchId])).toEqual([]);
    expect(await asHq("update interaction_batches set lease_until = now() where id = $1 returning id", [batchId])).toEqual([]);
    await expect(asOther("insert into interaction_batches (agent_id, turns, lease_until) values ($1, 1, now())", [manager.id])).rejects.toMatchObject({ code: "42501" });
    await expect(asOther("delete from interaction_batches where id = $1", [batchId])).rejects.toMatchObject({ code: "42501" });
    await expect(asOther("select mhq.publish_interaction_batch($1, '{}')", [batchId])).rejects.toMatchObject({ code: "MHQ10" });
    await expect(asOther("select mhq.index_interaction_batch($1, '{}')", [batchId])).rejects.toMatchObject({ code: "MHQ10" });
    // nor writes a turn into it
    await expect(
      asOther(
        `insert into interactions (agent_id, channel, direction, content, batch_id) values ($1, 'chat', 'inbound', 'smuggled', $2)`,
        [other.id, batchId],
      ),
    ).rejects.toMatchObject({ code: "42501" });
    expect(await stored(manager.id)).toEqual(midway);

    gate.release();
    const res = await posting;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await stored(manager.id)).toEqual({ n: 40, hidden: 0 });
    expect(await visibleTo(hqAdmin, manager.id)).toBe(40);
    expect(await heard()).toBe(1);
    const listed = await as(manager.key).get(`/api/v1/interactions?conversationId=${encodeURIComponent(items[0]!.conversationId)}&limit=100`);
    expect(listed.body.interactions.map((i: { content: string }) => i.content)).toEqual(items.map((i) => i.content));
    const after = await as(manager.key).post("/api/v1/retrieve", { message: `What about ${word}?`, scopes: ["interactions"] });
    expect(after.body.items.length).toBeGreaterThan(0);
    // its row is gone once the turns around it are indexed; the audit entry came with it
    expect(await db.query("select 1 from interaction_batches where id = $1", [batchId])).toEqual([]);
    const audit = await db.query<{ details: { count: number } }>(
      "select details from audit_log where action = 'interaction.batch' and actor_id = $1",
      [manager.id],
    );
    expect(audit.map((a) => a.details.count)).toEqual([40]);
  });

  it("joins its conversation: the visible turns around it take it into their context once it is published, not before", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const thread = `thread-${randomUUID()}`;
    const at = (minute: number) => `2026-03-02T14:${String(minute).padStart(2, "0")}:00Z`;
    const singles: string[] = [];
    for (const minute of [0, 10, 40, 50]) {
      const r = await as(agent.key).post("/api/v1/interactions", turn(`single at ${minute}`, { conversationId: thread, occurredAt: at(minute) }));
      singles.push(r.body.interaction.id);
    }
    const docs = async (ids: string[]) =>
      new Map(
        (
          await (await getDatabase()).query<{ id: string; prev: string | null; next: string | null }>(
            "select interaction_id as id, prev_id as prev, next_id as next from interaction_search_docs where interaction_id = any($1::uuid[])",
            [ids],
          )
        ).map((r) => [r.id, r]),
      );
    const gate = pauseAt("store");
    const batch = Array.from({ length: 20 }, (_, i) => turn(`batch turn ${i}`, { conversationId: thread, occurredAt: at(20 + i) }));
    const posting = as(agent.key).post("/api/v1/interactions/batch", { interactions: batch });
    await gate.paused;
    // hidden turns are no visible turn's neighbours
    expect((await docs(singles)).get(singles[1]!)).toMatchObject({ prev: singles[0], next: singles[2] });
    gate.release();
    const res = await posting;
    expect(res.status).toBe(201);
    const ids: string[] = res.body.interactions.map((i: { id: string }) => i.id);
    const after = await docs([...singles, ...ids]);
    expect(after.get(singles[1]!)).toMatchObject({ prev: singles[0], next: ids[0] });
    expect(after.get(singles[2]!)).toMatchObject({ prev: ids[19], next: singles[3] });
    expect(after.get(ids[0]!)).toMatchObject({ prev: singles[1], next: ids[1] });
    expect(after.get(ids[19]!)).toMatchObject({ prev: ids[18], next: singles[2] });
  });

  it("a step that fails leaves nothing; the janitor deletes what it wrote, and the retry stores it once", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const items = transcript(rareWord());
    let steps = 0;
    setBatchStepHookForTests((step) => {
      if (step === "store" && ++steps === 2) throw new Error("the machine lost power");
    });
    const failed = await as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    expect(failed.status).toBe(500);
    setBatchStepHookForTests(undefined);
    expect((await stored(agent.id)).n - (await stored(agent.id)).hidden).toBe(0);
    await runBatchJanitor();
    expect(await stored(agent.id)).toEqual({ n: 0, hidden: 0 });
    const retried = await as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    expect(retried.status).toBe(201);
    expect(await stored(agent.id)).toEqual({ n: 40, hidden: 0 });
    expect(await (await getDatabase()).query("select 1 from interaction_batches b where b.agent_id = $1", [agent.id])).toEqual([]);
  });

  it("a retry racing its first attempt waits for it and is answered with what it stored", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const items = transcript(rareWord());
    const gate = pauseAt("store");
    const first = as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    await gate.paused;
    let answered = false;
    const retry = as(agent.key)
      .post("/api/v1/interactions/batch", { interactions: items })
      .finally(() => (answered = true));
    // a single write of one of its turns waits too
    const single = as(agent.key).post("/api/v1/interactions", items[7]);
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    gate.release();
    const [a, b, c] = await Promise.all([first, retry, single]);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.interactions).toEqual(a.body.interactions.map((i: object) => ({ ...i, deduplicated: true })));
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ deduplicated: true, interaction: { id: a.body.interactions[7].id } });
    expect(await stored(agent.id)).toEqual({ n: 40, hidden: 0 });
  });

  it("a batch whose process stopped midway is given up at the next start and cleared; its retry stores it once", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const items = transcript(rareWord());
    const gate = pauseAt("store");
    const stranded = as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    await gate.paused;
    // what the next start of the embedded database does, then the janitor
    await releaseBatchesOfStoppedProcess(await getDatabase());
    await runBatchJanitor();
    expect(await stored(agent.id)).toEqual({ n: 0, hidden: 0 });
    // the process that "stopped" finds its batch given up at its next step: nothing stored
    gate.release();
    const res = await stranded;
    expect(res.status).toBe(503);
    expect(await stored(agent.id)).toEqual({ n: 0, hidden: 0 });
    const retried = await as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    expect(retried.status).toBe(201);
    expect(await stored(agent.id)).toEqual({ n: 40, hidden: 0 });
  });

  it("a batch published by a process that stopped before finishing it is finished by the janitor right after the next start", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const items = transcript(rareWord());
    const gate = pauseAt("published");
    const stranded = as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    const batchId = await gate.paused;
    const batchRows = async () =>
      (await (await getDatabase()).query<{ state: string }>(`select state from interaction_batches where id = $1`, [batchId])).map((r) => r.state);
    expect(await batchRows()).toEqual(["published"]);
    // the next start, and at once the janitor's first run: no process finishes the batch any more,
    // whichever clock tick the two fall on (the embedded database's clock counts milliseconds)
    await releaseBatchesOfStoppedProcess(await getDatabase());
    await runBatchJanitor();
    expect(await batchRows()).toEqual([]);
    expect(await stored(agent.id)).toEqual({ n: 40, hidden: 0 });
    gate.release();
    expect((await stranded).status).toBe(201);
  });

  it("the next start hands every published batch to the janitor, even within the clock tick of its release", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const db = await getDatabase();
    for (let i = 0; i < 20; i++) {
      const [row] = await db.query<{ id: string }>(
        `insert into interaction_batches (agent_id, turns, state, lease_until, published_at)
         values ($1, 1, 'published', now() + interval '1 minute', now()) returning id`,
        [agent.id],
      );
      await releaseBatchesOfStoppedProcess(db);
      expect((await leftoverBatches(db)).map((b) => b.id)).toContain(row!.id);
      await db.query(`delete from interaction_batches where id = $1`, [row!.id]);
    }
  });

  it("a contact that opts out while a batch naming them is stored refuses the whole batch", async () => {
    const client = await createClient();
    const manager = await createAgent({ kind: "internal", role: "manager" });
    const c = await as(manager.key).post("/api/v1/contacts", { name: "Robin Optout", clientId: client.id });
    const contactId = c.body.contact.id as string;
    const items = transcript(rareWord()).map((t, i) => (i % 2 ? { ...t, contactId } : t));
    const gate = pauseAt("store");
    const posting = as(manager.key).post("/api/v1/interactions/batch", { interactions: items });
    await gate.paused;
    expect((await admin.post(`/api/v1/contacts/${contactId}/opt-out`)).status).toBe(200);
    gate.release();
    const res = await posting;
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    await runBatchJanitor();
    expect(await stored(manager.id)).toEqual({ n: 0, hidden: 0 });
  });
});
