// A conversation is one agent's, and a turn is ranked only with text everyone who may read it may
// read: an internal agent's thread may mix a client's turns with HQ-internal ones and another
// client's, and a field agent's question must score its client's turn the same whatever else the
// thread holds. Through the API and, under the caller's row-level security, at the database.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { getEmbeddingProvider, toVectorLiteral } from "@/lib/embeddings";
import { listInteractions } from "@/lib/memories/interaction-queries";
import { searchInteractions } from "@/lib/retrieval/search/queries";
import { flushTermStats } from "@/lib/retrieval/search/term-stats";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";

const FRONT_DESK = "Hello, this is the front desk";
const QUESTION = "front desk zorblax acquisition margin";

const turn = (content: string, over: Record<string, unknown> = {}) => ({ channel: "chat", direction: "inbound", content, ...over });

function callerOf(agent: TestAgent, kind: "internal" | "field", role: AgentCaller["role"]): AgentCaller {
  return { type: "agent", agentId: agent.id, name: agent.name, kind, role, clientId: agent.clientId, kbAccess: "read" };
}

async function record(agent: TestAgent, turns: Record<string, unknown>[]) {
  const res = await as(agent.key).post("/api/v1/interactions/batch", { interactions: turns });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await flushTermStats();
  return res.body.interactions.map((i: { id: string }) => i.id) as string[];
}

/** The front-desk turn as a field agent's retrieve ranks it. */
async function askAsField(field: TestAgent) {
  const res = await as(field.key).post("/api/v1/retrieve", { message: QUESTION, scopes: ["interactions"] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.find((i: { content: string }) => i.content === FRONT_DESK);
}

/** The same, straight from the search function, as the field agent under row-level security. */
async function searchAsField(field: AgentCaller) {
  const [vector] = await getEmbeddingProvider().embed([QUESTION]);
  const hits = await withClaims(await getDatabase(), claimsFor(field), (tx) =>
    searchInteractions(tx, {
      message: QUESTION,
      embedding: toVectorLiteral(vector!),
      model: getEmbeddingProvider().model,
      limit: 10,
      agentId: null,
      clientId: field.clientId,
    }),
  );
  return hits.find((h) => h.content === FRONT_DESK);
}

/** The words the turn's search document holds (its own and its neighbours'). */
async function documentWords(id: string) {
  const rows = await (await getDatabase()).query<{ lexeme: string }>("select lexeme from interaction_postings where interaction_id = $1", [id]);
  return rows.map((r) => r.lexeme);
}

describe("a turn's ranking context", () => {
  it("holds no word of another client's or HQ's turns in the same thread: a field agent's score does not move when they are added", async () => {
    const clientA = await createClient();
    const clientB = await createClient();
    const hq = await createAgent({ kind: "internal", role: "orchestrator" });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: clientB.id });
    const thread = `thread-${randomUUID()}`;
    const at = (minute: number) => `2026-05-04T10:0${minute}:00Z`;

    const [frontDesk] = await record(hq, [turn(FRONT_DESK, { clientId: clientB.id, conversationId: thread, occurredAt: at(2) })]);
    const before = { api: await askAsField(field), db: await searchAsField(callerOf(field, "field", "orchestrator")) };
    expect(before.api, "the field agent finds its client's turn").toBeDefined();
    expect(before.db).toBeDefined();

    // the same thread: an HQ-internal note just before the turn, another client's turn just after
    await record(hq, [
      turn("Internal note: acquisition target Zorblax margin is eleven percent", { conversationId: thread, occurredAt: at(1) }),
      turn("Client A asks about the Zorblax acquisition margin", { clientId: clientA.id, conversationId: thread, occurredAt: at(3) }),
    ]);
    expect(await documentWords(frontDesk!)).not.toContain("zorblax");
    const [doc] = await (await getDatabase()).query<{ prev: string | null; next: string | null }>(
      "select prev_id as prev, next_id as next from interaction_search_docs where interaction_id = $1",
      [frontDesk],
    );
    expect(doc).toEqual({ prev: null, next: null });

    const after = { api: await askAsField(field), db: await searchAsField(callerOf(field, "field", "orchestrator")) };
    expect(after.api).toEqual(before.api);
    expect(after.db).toEqual(before.db);
    expect(after.db!.conversationCoverage).toBe(before.db!.conversationCoverage);

    // HQ still reads the whole thread, in conversation order
    const listed = await admin.get(`/api/v1/interactions?agentId=${hq.id}&conversationId=${thread}`);
    expect(listed.body.interactions.map((i: { occurredAt: string }) => i.occurredAt)).toEqual([at(1), at(2), at(3)].map((t) => t.replace("Z", ".000Z")));
  });
});

describe("a conversation is one agent's", () => {
  it("lists the caller's own thread for its conversationId, another agent's only when named, and HQ must name the agent", async () => {
    const client = await createClient();
    const first = await createAgent({ kind: "internal", role: "orchestrator" });
    const second = await createAgent({ kind: "internal", role: "orchestrator" });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const thread = `shared-${randomUUID()}`;
    await record(first, [turn("first agent, turn one", { conversationId: thread }), turn("first agent, turn two", { conversationId: thread })]);
    await record(second, [
      turn("second agent, internal turn", { conversationId: thread }),
      turn("second agent, the client's turn", { conversationId: thread, clientId: client.id }),
    ]);
    const contents = (res: { body: { interactions: { content: string }[] } }) => res.body.interactions.map((i) => i.content);

    const own = await as(first.key).get(`/api/v1/interactions?conversationId=${thread}`);
    expect(own.status).toBe(200);
    expect(contents(own)).toEqual(["first agent, turn one", "first agent, turn two"]);
    expect(contents(await as(second.key).get(`/api/v1/interactions?conversationId=${thread}`))).toEqual([
      "second agent, internal turn",
      "second agent, the client's turn",
    ]);
    // another agent's, named: whoever may read its interactions, each the turns it may read
    expect(contents(await as(first.key).get(`/api/v1/interactions?conversationId=${thread}&agentId=${second.id}`))).toEqual([
      "second agent, internal turn",
      "second agent, the client's turn",
    ]);
    expect(contents(await as(field.key).get(`/api/v1/interactions?conversationId=${thread}&agentId=${second.id}`))).toEqual([
      "second agent, the client's turn",
    ]);
    const unnamed = await admin.get(`/api/v1/interactions?conversationId=${thread}`);
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.error.message).toMatch(/^agentId: /);
    expect(contents(await admin.get(`/api/v1/interactions?conversationId=${thread}&agentId=${first.id}`))).toEqual([
      "first agent, turn one",
      "first agent, turn two",
    ]);

    // the listing at the database, as the caller under row-level security
    const listAs = async (caller: AgentCaller, agentId: string) =>
      (
        await withClaims(await getDatabase(), claimsFor(caller), (tx) =>
          listInteractions(tx, { conversation: { agentId, id: thread }, limit: 50 }),
        )
      ).rows.map((r) => r.content);
    expect(await listAs(callerOf(first, "internal", "orchestrator"), first.id)).toEqual(["first agent, turn one", "first agent, turn two"]);
    expect(await listAs(callerOf(field, "field", "orchestrator"), second.id)).toEqual(["second agent, the client's turn"]);
  });
});
