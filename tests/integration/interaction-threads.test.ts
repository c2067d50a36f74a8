// Conversations as integrations record them: transcripts in one call, retries, thread ids, and the
// order turns were recorded in when their times are equal.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, rareWord } from "../helpers/fixtures";
import { currentTestDatabase } from "../helpers/setup-env";
import { transport } from "../helpers/db";

const SESSION_TIME = "2026-03-02T14:00:00Z";
const turn = (content: string, over: Record<string, unknown> = {}) => ({
  channel: "chat",
  direction: "inbound",
  speaker: "Dana",
  content,
  occurredAt: SESSION_TIME,
  ...over,
});

async function countFor(agentId: string) {
  const [row] = await (await getDatabase()).query<{ n: number }>("select count(*)::int as n from interactions where agent_id = $1", [agentId]);
  return row!.n;
}

/** Each turn's neighbours as the ranking sees them (its document's previous and next turn). */
async function neighbours(ids: string[]) {
  const rows = await (await getDatabase()).query<{ id: string; prev: string | null; next: string | null; label: string }>(
    `select interaction_id as id, prev_id as prev, next_id as next, conversation_id::text as label
       from interaction_search_docs where interaction_id = any($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

describe("POST /interactions/batch", () => {
  it("stores a transcript in the order sent, though every turn has the same time, and lists it in that order", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const thread = `session-${randomUUID()}`;
    // ids are random, so order by id would shuffle these; ten turns make a lucky order improbable
    const contents = Array.from({ length: 10 }, (_, i) => `turn ${i} ${rareWord()}`);
    const res = await as(agent.key).post("/api/v1/interactions/batch", {
      interactions: contents.map((c, i) => turn(c, { conversationId: thread, externalId: `${thread}-${i}`, direction: i % 2 ? "outbound" : "inbound" })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ids = res.body.interactions.map((i: { id: string }) => i.id);
    expect(res.body.interactions).toEqual(ids.map((id: string, i: number) => ({ id, externalId: `${thread}-${i}` })));

    const listed = await as(agent.key).get(`/api/v1/interactions?conversationId=${encodeURIComponent(thread)}`);
    expect(listed.status).toBe(200);
    expect(listed.body.interactions.map((i: { content: string }) => i.content)).toEqual(contents);
    expect(listed.body.interactions[0]).toMatchObject({ conversationId: thread, externalId: `${thread}-0`, conversation: thread });

    // the ranking's context: each turn's neighbours are the turns sent before and after it
    const docs = await neighbours(ids);
    ids.forEach((id: string, i: number) => {
      expect(docs.get(id)).toMatchObject({ prev: ids[i - 1] ?? null, next: ids[i + 1] ?? null });
    });
    // newest first without a conversation: the later-sent turn of equal time first
    const newest = await as(agent.key).get(`/api/v1/interactions?agentId=${agent.id}&limit=3`);
    expect(newest.body.interactions.map((i: { id: string }) => i.id)).toEqual(ids.slice(-3).reverse());
  });

  it("stores nothing when one item is bad, and names the first bad item's position", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const items = Array.from({ length: 6 }, (_, i) => turn(`fine turn ${i}`));
    const bad = [...items];
    bad[3] = turn("");
    bad[5] = { ...turn("also bad"), direction: "sideways" };
    const res = await as(agent.key).post("/api/v1/interactions/batch", { interactions: bad });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "validation_failed", details: { index: 3 } });
    expect(res.body.error.message).toMatch(/^interactions\[3\]\.content: /);

    // a contact the caller cannot see, at position 2: refused the same way, nothing stored
    const missing = [...items];
    missing[2] = turn("about a stranger", { contactId: randomUUID() });
    const res2 = await as(agent.key).post("/api/v1/interactions/batch", { interactions: missing });
    expect(res2.status).toBe(422);
    expect(res2.body.error.details).toMatchObject({ index: 2 });
    expect(await countFor(agent.id)).toBe(0);

    // the same externalId twice in one batch
    const twice = items.map((t, i) => ({ ...t, externalId: i === 4 ? "m-1" : `m-${i}` }));
    const res3 = await as(agent.key).post("/api/v1/interactions/batch", { interactions: twice });
    expect(res3.status).toBe(422);
    expect(res3.body.error.details).toMatchObject({ index: 4 });
    expect(await countFor(agent.id)).toBe(0);
  });

  it("answers 422 to an empty batch and to one of more than 500 items", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    expect((await as(agent.key).post("/api/v1/interactions/batch", { interactions: [] })).status).toBe(422);
    const many = Array.from({ length: 501 }, (_, i) => turn(`turn ${i}`));
    const res = await as(agent.key).post("/api/v1/interactions/batch", { interactions: many });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/^interactions: /);
    expect(await countFor(agent.id)).toBe(0);
    const full = await as(agent.key).post("/api/v1/interactions/batch", { interactions: many.slice(0, 500) });
    expect(full.status).toBe(201);
    expect(await countFor(agent.id)).toBe(500);
  });

  it("a retried batch answers the same ids and stores nothing new; a partly new one stores only the new turns", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const items = Array.from({ length: 5 }, (_, i) => turn(`retry turn ${i}`, { externalId: `call-7:${i}` }));
    const first = await as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    expect(first.status).toBe(201);
    const again = await as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    // nothing new stored: the same ids, each marked deduplicated
    expect(again.status).toBe(201);
    expect(again.body.interactions).toEqual(first.body.interactions.map((i: object) => ({ ...i, deduplicated: true })));
    expect(await countFor(agent.id)).toBe(5);

    const more = [...items, turn("retry turn 5", { externalId: "call-7:5" })];
    const third = await as(agent.key).post("/api/v1/interactions/batch", { interactions: more });
    expect(third.status).toBe(201);
    expect(third.body.interactions.slice(0, 5).every((i: { deduplicated?: boolean }) => i.deduplicated)).toBe(true);
    expect(third.body.interactions[5]).toEqual({ id: expect.any(String), externalId: "call-7:5" });
    expect(await countFor(agent.id)).toBe(6);
  });

  it("keeps a field agent to its own client, item by item", async () => {
    const [mine, other] = [await createClient(), await createClient()];
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: mine.id });
    const res = await as(santos.key).post("/api/v1/interactions/batch", {
      interactions: [turn("ours"), turn("theirs", { clientId: other.id })],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toMatchObject({ index: 1 });
    expect(await countFor(santos.id)).toBe(0);
    expect((await admin.post("/api/v1/interactions/batch", { interactions: [turn("hq")] })).status).toBe(403);
  });
});

describe("externalId on single writes", () => {
  it("answers a retry 200 with the stored interaction, for a specialist that cannot read interactions too", async () => {
    const specialist = await createAgent({ kind: "internal", role: "specialist" });
    const body = turn("Can you move my appointment to Friday?", { externalId: "sms-4411", occurredAt: undefined });
    const first = await as(specialist.key).post("/api/v1/interactions", body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.interaction).toMatchObject({ externalId: "sms-4411", conversationId: null, conversation: expect.any(String) });
    const retry = await as(specialist.key).post("/api/v1/interactions", { ...body, content: "a retry's body is not stored again" });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ interaction: first.body.interaction, deduplicated: true });
    expect(await countFor(specialist.id)).toBe(1);
    expect((await as(specialist.key).get("/api/v1/interactions")).status).toBe(403);
  });

  it("is unique per agent: another agent's same externalId is its own turn, never an answer with the other's row", async () => {
    const a = await createAgent({ kind: "internal", role: "orchestrator" });
    const b = await createAgent({ kind: "internal", role: "orchestrator" });
    const ra = await as(a.key).post("/api/v1/interactions", turn("a's message", { externalId: "shared-id" }));
    const rb = await as(b.key).post("/api/v1/interactions", turn("b's message", { externalId: "shared-id" }));
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(rb.body.interaction.content).toBe("b's message");
    // and in the database: a caller reads only its own rows through the lookup
    const db = currentTestDatabase().db;
    const { withClaims, claimsFor } = await import("@/lib/db/caller");
    const asB = { type: "agent" as const, agentId: b.id, name: b.name, kind: "internal" as const, role: "orchestrator" as const, clientId: null, kbAccess: "read" as const };
    const seen = await withClaims(db, claimsFor(asB), (tx) =>
      tx.query<{ id: string }>("select id from mhq.own_interactions($1::uuid[], $2::text[])", [[ra.body.interaction.id], ["shared-id"]]),
    );
    expect(seen.map((r) => r.id)).toEqual([rb.body.interaction.id]);
  });
});

describe("conversations", () => {
  it("a conversationId defines the conversation exactly: across channels and days; turns without one are inferred apart", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const post = async (body: object) => (await as(agent.key).post("/api/v1/interactions", body)).body.interaction.id as string;
    const t1 = await post(turn("first, by phone", { channel: "call", conversationId: "case-9", occurredAt: "2026-03-01T09:00:00Z" }));
    const loose = await post(turn("unrelated chat in between", { occurredAt: "2026-03-01T09:05:00Z" }));
    const t2 = await post(turn("then by email two days later", { channel: "email", conversationId: "case-9", occurredAt: "2026-03-03T10:00:00Z" }));
    const docs = await neighbours([t1, t2, loose]);
    expect(docs.get(t1)).toMatchObject({ prev: null, next: t2 });
    expect(docs.get(t2)).toMatchObject({ prev: t1, next: null });
    expect(docs.get(loose)).toMatchObject({ prev: null, next: null });
    const listed = await as(agent.key).get("/api/v1/interactions?conversationId=case-9");
    expect(listed.body.interactions.map((i: { id: string }) => i.id)).toEqual([t1, t2]);
    // an inferred conversation is listed by the id each of its turns carries
    const inferred = (await as(agent.key).get(`/api/v1/interactions?agentId=${agent.id}`)).body.interactions.find((i: { id: string }) => i.id === loose);
    const byLabel = await as(agent.key).get(`/api/v1/interactions?conversationId=${inferred.conversation}`);
    expect(byLabel.body.interactions.map((i: { id: string }) => i.id)).toEqual([loose]);
  });

  it("turns recorded one call each with one shared time keep the order they arrived in", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push((await as(agent.key).post("/api/v1/interactions", turn(`call ${i}`, { channel: "sms" }))).body.interaction.id);
    }
    const docs = await neighbours(ids);
    ids.forEach((id, i) => expect(docs.get(id)).toMatchObject({ prev: ids[i - 1] ?? null, next: ids[i + 1] ?? null }));
    expect(new Set(ids.map((id) => docs.get(id)!.label)).size).toBe(1);
  });

  it("pages with a cursor: newest first, or a conversation in order, with no turn twice or missed", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const items = Array.from({ length: 7 }, (_, i) => turn(`paged ${i}`, { conversationId: "paged" }));
    const ids = (await as(agent.key).post("/api/v1/interactions/batch", { interactions: items })).body.interactions.map((i: { id: string }) => i.id);
    const collect = async (base: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { interactions: { id: string }[]; nextCursor: string | null } } = await as(agent.key).get(
          `${base}&limit=3${cursor ? `&cursor=${cursor}` : ""}`,
        );
        seen.push(...page.body.interactions.map((i) => i.id));
        cursor = page.body.nextCursor;
      } while (cursor);
      return seen;
    };
    expect(await collect("/api/v1/interactions?conversationId=paged")).toEqual(ids);
    expect(await collect(`/api/v1/interactions?agentId=${agent.id}`)).toEqual([...ids].reverse());
    expect((await as(agent.key).get("/api/v1/interactions?cursor=bm90IGEgY3Vyc29y")).status).toBe(422);
  });
});

describe.runIf(transport === "postgres")("concurrent writers on a real server", () => {
  it("two copies of one batch sent at once store it once", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const items = Array.from({ length: 20 }, (_, i) => turn(`race ${i}`, { externalId: `race-${i}`, conversationId: "race" }));
    const [r1, r2] = await Promise.all([
      as(agent.key).post("/api/v1/interactions/batch", { interactions: items }),
      as(agent.key).post("/api/v1/interactions/batch", { interactions: items }),
    ]);
    // one stored the turns; the other found every one stored (all deduplicated); both answer 201
    expect([r1.status, r2.status]).toEqual([201, 201]);
    const repeats = [r1, r2].filter((r) => r.body.interactions.every((i: { deduplicated?: boolean }) => i.deduplicated));
    expect(repeats).toHaveLength(1);
    expect(r1.body.interactions.map((i: { id: string }) => i.id)).toEqual(r2.body.interactions.map((i: { id: string }) => i.id));
    expect(await countFor(agent.id)).toBe(20);
  });

  it("batches into one conversation at once interleave without a deadlock, every turn with consistent neighbours", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const batches = Array.from({ length: 4 }, (_, b) =>
      Array.from({ length: 25 }, (_, i) => turn(`b${b} t${i}`, { conversationId: "shared-thread", occurredAt: new Date(Date.UTC(2026, 2, 2, 14, i)).toISOString() })),
    );
    const results = await Promise.all(batches.map((interactions) => as(agent.key).post("/api/v1/interactions/batch", { interactions })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const listed = await as(agent.key).get("/api/v1/interactions?conversationId=shared-thread&limit=200");
    const order = listed.body.interactions.map((i: { id: string }) => i.id);
    expect(order).toHaveLength(100);
    const docs = await neighbours(order);
    order.forEach((id: string, i: number) => expect(docs.get(id)).toMatchObject({ prev: order[i - 1] ?? null, next: order[i + 1] ?? null }));
  });
});
