import { describe, expect, it } from "vitest";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser } from "../helpers/fixtures";
import { getDatabase } from "@/lib/db";
import { LOCAL_DIMENSIONS } from "@/lib/embeddings/local";

const memories = (agent: string, query = "") => `/api/v1/agents/${agent}/memories${query}`;
const DAY = 24 * 60 * 60 * 1000;

const insight = (over: Record<string, unknown> = {}) => ({
  tier: "learning",
  category: "insight",
  title: "Clients reply faster to SMS than email",
  content: "Across three deployments SMS got answers within the hour; email took a day.",
  confidence: 0.8,
  tags: ["channels"],
  // these tests repeat one text on purpose: a given surprise score keeps the surprise filter out of them
  surpriseScore: 0.5,
  ...over,
});

async function dbRows<T = any>(sql: string, params: unknown[] = []) {
  return (await getDatabase()).query<T>(sql, params);
}

describe("memory_write", () => {
  it("stores a memory with its tier, category, confidence and decision fields and an embedding", async () => {
    const saber = await createAgent({ kind: "internal", role: "specialist" });
    const res = await as(saber.key).post(memories("me"), {
      tier: "learning",
      category: "decision",
      title: "Short BTC based on funding rate spike",
      content: "Funding rate hit 0.08%. Entered short at $94,200.",
      confidence: 0.6,
      surpriseScore: 0.3,
      tags: ["investing", "btc"],
      decisionContext: {
        reasoning: "Funding rate > 0.05% has preceded corrections 73% of time in backtesting",
        alternatives: ["Wait for 0.1% threshold", "Hedge with ETH long"],
        assumptions: ["No major news catalyst"],
        killCriteria: "Exit if funding rate drops below 0.03% without price movement",
      },
      occurredAt: "2026-02-15T10:00:00Z",
    });
    expect(res.status).toBe(201);
    expect(res.body.memory).toMatchObject({
      agentId: saber.id,
      scope: "agent",
      tier: "learning",
      category: "decision",
      confidence: 0.6,
      surpriseScore: 0.3,
      tags: ["investing", "btc"],
      status: "active",
      accessedCount: 0,
      outcome: null,
      embedded: true,
      expiresAt: null,
      version: 1,
      createdByName: saber.name,
    });
    expect(res.body.memory.decisionContext.alternatives).toHaveLength(2);
    expect(new Date(res.body.memory.occurredAt).toISOString()).toBe("2026-02-15T10:00:00.000Z");
    const [row] = await dbRows<{ dims: number }>("select vector_dims(embedding) as dims from memories where id = $1", [res.body.memory.id]);
    expect(row!.dims).toBe(LOCAL_DIMENSIONS);
  });

  it("answers 422 for a title over 200 characters, confidence 0.39, or a category of another tier", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const long = await as(agent.key).post(memories("me"), insight({ title: "t".repeat(201) }));
    expect(long.status).toBe(422);
    expect(long.body.error.code).toBe("validation_failed");
    expect((await as(agent.key).post(memories("me"), insight({ title: "t".repeat(200) }))).status).toBe(201);

    const unsure = await as(agent.key).post(memories("me"), insight({ confidence: 0.39 }));
    expect(unsure.status).toBe(422);
    expect(unsure.body.error.message).toContain("0.4");
    expect((await as(agent.key).post(memories("me"), insight({ confidence: 0.4, title: "just enough" }))).status).toBe(201);

    expect((await as(agent.key).post(memories("me"), insight({ tier: "core" }))).status).toBe(422);
    expect((await as(agent.key).post(memories("me"), insight({ decisionContext: { reasoning: "x" } }))).status).toBe(422);
    expect((await as(agent.key).post(memories("me"), insight({ importance: 5 }))).status).toBe(422);
    const list = await as(agent.key).get(memories("me"));
    expect(list.body.total).toBe(2);
  });

  it("deduplicates by sourceTraceId: the second write returns the first memory", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const first = await as(agent.key).post(memories("me"), insight({ sourceTraceId: "trace-42" }));
    expect(first.status).toBe(201);
    const again = await as(agent.key).post(memories("me"), insight({ sourceTraceId: "trace-42", title: "a rewording" }));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ deduplicated: true, memory: { id: first.body.memory.id, title: first.body.memory.title } });
    // concurrent repeats also collapse into one
    const burst = await Promise.all([1, 2, 3].map(() => as(agent.key).post(memories("me"), insight({ sourceTraceId: "trace-43" }))));
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(burst.map((r) => r.body.memory.id)).size).toBe(1);
    const [count] = await dbRows<{ n: number }>("select count(*)::int as n from memories where agent_id = $1", [agent.id]);
    expect(count!.n).toBe(2);
    // trace ids are per agent: another agent may reuse one
    const other = await createAgent({ kind: "internal", role: "specialist" });
    expect((await as(other.key).post(memories("me"), insight({ sourceTraceId: "trace-42" }))).status).toBe(201);
  });

  it("gives low-confidence learning entries a 7-day expiry, and nothing else", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const before = Date.now();
    const low = await as(agent.key).post(memories("me"), insight({ confidence: 0.45 }));
    const expires = new Date(low.body.memory.expiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000);
    expect((await as(agent.key).post(memories("me"), insight({ confidence: 0.5 }))).body.memory.expiresAt).toBeNull();
    const coreLow = await as(agent.key).post(memories("me"), { tier: "core", category: "preference", title: "Prefers bullet points", confidence: 0.45 });
    expect(coreLow.body.memory.expiresAt).toBeNull();

    // raising the confidence lifts the expiry; lowering it again starts one
    const raised = await as(agent.key).patch(`/api/v1/memories/${low.body.memory.id}`, { confidence: 0.7 });
    expect(raised.status).toBe(200);
    expect(raised.body.memory.expiresAt).toBeNull();
    const lowered = await as(agent.key).patch(`/api/v1/memories/${low.body.memory.id}`, { confidence: 0.42 });
    expect(lowered.body.memory.expiresAt).not.toBeNull();
  });
});

describe("what a memory may not hold", () => {
  it("never an SSN or a card number, in any field, through a write, an edit or an outcome; a topic may pass", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    // each finding names the field that held it, so the agent knows what to fix
    const refused = async (res: { status: number; body: any }, field: string) => {
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.code).toBe("pii_refused");
      expect(res.body.error.details.findings.map((f: { field: string }) => f.field)).toEqual([field]);
      expect(res.body.error.message).toMatch(new RegExp(`^The ${field.replace(/[[\]]/g, "\\$&")} contains`));
    };
    await refused(await as(agent.key).post(memories("me"), insight({ content: "Customer Jane, SSN 123-45-6789" })), "content");
    await refused(await as(agent.key).post(memories("me"), insight({ title: "Card on file 4111 1111 1111 1111" })), "title");
    await refused(await as(agent.key).post(memories("me"), insight({ tags: ["billing", "4111111111111111"] })), "tags[1]");
    await refused(
      await as(agent.key).post(memories("me"), {
        tier: "learning", category: "decision", title: "Charged the card", confidence: 0.8, decisionContext: { reasoning: "card 5555 5555 5555 4444 was on file" },
      }),
      "decisionContext",
    );
    // an agent's knowledge may name a sensitive topic: it is not a fact about a person
    const lesson = await as(agent.key).post(memories("me"), insight({ title: "Never discuss politics or religion with callers", surpriseScore: 0.9 }));
    expect(lesson.status, JSON.stringify(lesson.body)).toBe(201);
    await refused(await as(agent.key).patch(`/api/v1/memories/${lesson.body.memory.id}`, { content: "SSN 123-45-6789" }), "content");
    const decision = await as(agent.key).post(memories("me"), { tier: "learning", category: "decision", title: "Offer a refund", confidence: 0.8, surpriseScore: 0.9 });
    expect(decision.status, JSON.stringify(decision.body)).toBe(201);
    await refused(await as(agent.key).post(`/api/v1/memories/${decision.body.memory.id}/outcome`, { result: "Refunded to 4111 1111 1111 1111", success: true }), "result");
    expect(await dbRows("select id from memories where agent_id = $1 and (content ~ '123-45' or title ~ '4111')", [agent.id])).toEqual([]);
  });

  it("shares knowledge, not identity: an identity memory cannot be a team memory", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const shared = await as(agent.key).post(memories("me"), { tier: "core", category: "identity", title: "I am the night-shift dispatcher", confidence: 0.9, scope: "team" });
    expect(shared.status, JSON.stringify(shared.body)).toBe(422);
    expect(shared.body.error.details.map((d: { path: string }) => d.path)).toContain("scope");
    const own = await as(agent.key).post(memories("me"), { tier: "core", category: "identity", title: "I am the night-shift dispatcher", confidence: 0.9 });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const team = await as(agent.key).post(memories("me"), { tier: "core", category: "procedure", title: "Night calls go to the on-call plumber", confidence: 0.9, scope: "team" });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const turned = await as(agent.key).patch(`/api/v1/memories/${team.body.memory.id}`, { category: "identity" });
    expect(turned.status, JSON.stringify(turned.body)).toBe(422);
  });
});

describe("the 200-memory cap", () => {
  it("archives the least valuable (lowest confidence, least accessed, oldest), never core, never deletes", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const db = await getDatabase();
    const insert = (title: string, tier: string, category: string, confidence: number, accessed: number, ageDays: number, extra = "") =>
      db.query<{ id: string }>(
        `insert into memories (agent_id, tier, category, title, confidence, accessed_count, created_at ${extra ? ", scope" : ""})
         values ($1, $2, $3, $4, $5, $6, now() - make_interval(days => $7) ${extra ? ", 'team'" : ""}) returning id`,
        [agent.id, tier, category, title, confidence, accessed, ageDays],
      );
    // 196 ordinary memories, a low-confidence core memory, and three candidates that tie on confidence
    await db.query(
      `insert into memories (agent_id, tier, category, title, confidence, created_at)
       select $1, 'learning', 'insight', 'filler ' || g, 0.9, now() - make_interval(days => 1) from generate_series(1, 196) g`,
      [agent.id],
    );
    const [core] = await insert("core identity (low confidence)", "core", "identity", 0.41, 0, 30);
    const [x] = await insert("X accessed once, oldest", "learning", "lesson", 0.45, 1, 5);
    const [y] = await insert("Y never accessed, newer", "working", "project", 0.45, 0, 2);
    const [z] = await insert("Z never accessed, older", "learning", "pattern", 0.45, 0, 3);
    // outside the count: a team memory and an already archived one
    await insert("team knowledge", "learning", "insight", 0.4, 0, 10, "team");
    await db.query(`insert into memories (agent_id, tier, category, title, confidence, status) values ($1, 'learning', 'insight', 'old', 0.4, 'archived')`, [agent.id]);

    const active = async () =>
      (await dbRows<{ n: number }>(`select count(*)::int as n from memories where agent_id = $1 and scope = 'agent' and status = 'active'`, [agent.id]))[0]!.n;
    expect(await active()).toBe(200);

    const w1 = await as(agent.key).post(memories("me"), insight({ title: "201st" }));
    expect(w1.status).toBe(201);
    expect(w1.body.archived).toEqual([{ id: z!.id, title: "Z never accessed, older" }]);
    expect(await active()).toBe(200);

    const w2 = await as(agent.key).post(memories("me"), insight({ title: "202nd" }));
    expect(w2.body.archived.map((a: any) => a.id)).toEqual([y!.id]);
    const w3 = await as(agent.key).post(memories("me"), insight({ title: "203rd" }));
    expect(w3.body.archived.map((a: any) => a.id)).toEqual([x!.id]);

    // the core memory has the lowest confidence of all, yet stays
    const [coreRow] = await dbRows<{ status: string }>("select status from memories where id = $1", [core!.id]);
    expect(coreRow!.status).toBe("active");
    const archived = await as(agent.key).get(memories("me", "?status=archived"));
    expect(archived.body.memories.map((m: any) => m.title).sort()).toEqual(
      ["X accessed once, oldest", "Y never accessed, newer", "Z never accessed, older", "old"].sort(),
    );
    expect(archived.body.memories.find((m: any) => m.id === z!.id)).toMatchObject({ archiveReason: "cap", status: "archived" });

    // a new memory that is itself the least valuable is the one archived; core is always stored
    const weak = await as(agent.key).post(memories("me"), insight({ title: "weak guess", confidence: 0.4 }));
    expect(weak.status).toBe(201);
    expect(weak.body.memory.status).toBe("archived");
    expect(weak.body.archived.map((a: any) => a.id)).toEqual([weak.body.memory.id]);
    const coreWrite = await as(agent.key).post(memories("me"), { tier: "core", category: "principle", title: "Quality over speed", confidence: 0.4 });
    expect(coreWrite.body.memory.status).toBe("active");
    expect(await active()).toBe(200);
    const [total] = await dbRows<{ n: number }>("select count(*)::int as n from memories where agent_id = $1", [agent.id]);
    expect(total!.n).toBe(196 + 4 + 2 + 3 + 2); // nothing was deleted

    const audit = await admin.get("/api/v1/audit?action=memory");
    expect(audit.body.entries.filter((e: any) => e.action === "memory.archive_over_cap").length).toBeGreaterThanOrEqual(4);
  });
});

describe("scope and ownership", () => {
  it("lets internal agents share team memories and refuses field agents with 403", async () => {
    const client = await createClient();
    const sybil = await createAgent({ kind: "internal", role: "manager" });
    const sam = await createAgent({ kind: "internal", role: "specialist" });
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });

    const team = await as(sybil.key).post(memories("me"), {
      tier: "core",
      category: "principle",
      title: "Time is never an issue for AI agents",
      content: "Quality over speed, always.",
      confidence: 0.95,
      scope: "team",
      source: "bridget",
    });
    expect(team.status).toBe(201);
    expect(team.body.memory).toMatchObject({ scope: "team", source: "bridget" });

    // another internal agent reads and edits team knowledge
    const read = await as(sam.key).get(`/api/v1/memories/${team.body.memory.id}`);
    expect(read.status).toBe(200);
    const edit = await as(sam.key).patch(`/api/v1/memories/${team.body.memory.id}`, { tags: ["operating-principle"], expectedVersion: 1 });
    expect(edit.status).toBe(200);
    expect(edit.body.memory).toMatchObject({ tags: ["operating-principle"], version: 2 });

    // a field agent has no shared brain
    const write = await as(santos.key).post(memories("me"), insight({ scope: "team" }));
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe("forbidden");
    expect((await as(santos.key).get(memories("me", "?scope=team"))).status).toBe(403);
    expect((await as(santos.key).get(`/api/v1/memories/${team.body.memory.id}`)).status).toBe(404);
    expect((await as(santos.key).patch(`/api/v1/memories/${team.body.memory.id}`, { title: "mine now" })).status).toBe(404);
    // nor does the HQ write team knowledge in a field agent's name
    expect((await admin.post(memories(santos.id), insight({ scope: "team" }))).status).toBe(403);
    // its own private memory works as for anyone
    expect((await as(santos.key).post(memories("me"), insight())).status).toBe(201);
  });

  it("answers 404 when agent A reads or writes agent B's memories", async () => {
    const a = await createAgent({ kind: "internal", role: "manager" });
    const b = await createAgent({ kind: "internal", role: "specialist" });
    const secret = await as(b.key).post(memories("me"), insight({ title: "B's private lesson" }));
    const id = secret.body.memory.id;

    expect((await as(a.key).get(memories(b.id))).status).toBe(404);
    expect((await as(a.key).post(memories(b.id), insight())).status).toBe(404);
    expect((await as(a.key).get(`/api/v1/memories/${id}`)).status).toBe(404);
    expect((await as(a.key).patch(`/api/v1/memories/${id}`, { title: "overwritten" })).status).toBe(404);
    expect((await as(a.key).post(`/api/v1/memories/${id}/outcome`, { result: "x", success: true })).status).toBe(404);
    const after = await as(b.key).get(`/api/v1/memories/${id}`);
    expect(after.body.memory).toMatchObject({ title: "B's private lesson", version: 1 });
  });

  it("gives isolated agents no memory and HQ admins all of it", async () => {
    const isolated = await createAgent({ kind: "internal", role: "isolated" });
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    expect((await as(isolated.key).post(memories("me"), insight())).status).toBe(403);
    expect((await as(isolated.key).get(memories("me"))).status).toBe(403);
    const byAdmin = await admin.post(memories(agent.id), insight({ title: "Bridget's correction", category: "correction" }));
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.memory).toMatchObject({ agentId: agent.id, createdByName: "admin API key" });
    expect((await as(agent.key).get(memories("me"))).body.memories.map((m: any) => m.title)).toContain("Bridget's correction");
    expect((await admin.get(memories(agent.id))).body.total).toBe(1);
    // an HQ write into an agent's memory is a governance event
    const audit = await admin.get("/api/v1/audit?action=memory");
    expect(audit.body.entries.some((e: any) => e.action === "memory.create" && e.targetId === byAdmin.body.memory.id)).toBe(true);
  });
});

describe("listing, reading and editing", () => {
  it("filters by tier, category, status and scope, searches, and pages", async () => {
    const agent = await createAgent({ kind: "internal", role: "manager" });
    const write = (b: Record<string, unknown>) => as(agent.key).post(memories("me"), b);
    await write({ tier: "core", category: "client", title: "Sunrise Plumbing prefers texts", confidence: 0.9 });
    await write({ tier: "working", category: "commitment", title: "Send the onboarding checklist Friday", confidence: 0.9 });
    const thread = await write({ tier: "working", category: "thread", title: "Water heater quote follow-up", confidence: 0.8 });
    await write(insight({ title: "Drain cleaning calls peak on Mondays", category: "pattern" }));
    await write(insight({ title: "Team rule", scope: "team" }));
    await as(agent.key).patch(`/api/v1/memories/${thread.body.memory.id}`, { status: "resolved" });

    const titles = async (q: string) => (await as(agent.key).get(memories("me", q))).body.memories.map((m: any) => m.title);
    expect(await titles("?tier=working")).toEqual(["Send the onboarding checklist Friday"]);
    expect(await titles("?tier=working&status=all")).toHaveLength(2);
    expect(await titles("?status=resolved")).toEqual(["Water heater quote follow-up"]);
    expect(await titles("?category=pattern")).toEqual(["Drain cleaning calls peak on Mondays"]);
    expect(await titles("?scope=team")).toEqual(["Team rule"]);
    expect(await titles("?q=plumbing")).toEqual(["Sunrise Plumbing prefers texts"]);
    expect(await titles("?q=heater&status=all")).toEqual(["Water heater quote follow-up"]);
    const page = await as(agent.key).get(memories("me", "?limit=2&offset=1"));
    expect(page.body.memories).toHaveLength(2);
    expect(page.body.total).toBe(4);
    expect((await as(agent.key).get(memories("me", "?tier=legend"))).status).toBe(422);
    expect((await as(agent.key).get(memories("me", "?limit=0"))).status).toBe(422);
  });

  it("counts an agent's reads as accesses, not the console's", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const m = await as(agent.key).post(memories("me"), insight());
    const path = `/api/v1/memories/${m.body.memory.id}`;
    await as(agent.key).get(path);
    const second = await as(agent.key).get(path);
    expect(second.body.memory.accessedCount).toBe(2);
    expect(second.body.memory.lastAccessedAt).not.toBeNull();
    // the stored counters take the accesses in about a second (lib/retrieval/usage/access-counts.ts)
    await flushAccessCounts();
    expect((await admin.get(path)).body.memory.accessedCount).toBe(2);
  });

  it("edits with optimistic concurrency, re-embeds changed text, and validates tier and category", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const m = await as(agent.key).post(memories("me"), insight());
    const path = `/api/v1/memories/${m.body.memory.id}`;
    const [before] = await dbRows<{ e: string }>("select embedding::text as e from memories where id = $1", [m.body.memory.id]);

    const edited = await as(agent.key).patch(path, { title: "Clients answer SMS within the hour", expectedVersion: 1 });
    expect(edited.status).toBe(200);
    expect(edited.body.memory).toMatchObject({ title: "Clients answer SMS within the hour", version: 2 });
    const [after] = await dbRows<{ e: string }>("select embedding::text as e from memories where id = $1", [m.body.memory.id]);
    expect(after!.e).not.toBe(before!.e);

    const stale = await as(agent.key).patch(path, { content: "lost update", expectedVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.details.current.version).toBe(2);
    expect((await as(agent.key).patch(path, { tier: "core" })).status).toBe(422);
    expect((await as(agent.key).patch(path, { tier: "core", category: "principle" })).body.memory.tier).toBe("core");
    expect((await as(agent.key).patch(path, {})).status).toBe(422);

    const archived = await as(agent.key).patch(path, { status: "archived" });
    expect(archived.body.memory).toMatchObject({ status: "archived", archiveReason: "manual" });
    expect(archived.body.memory.archivedAt).not.toBeNull();
    const restored = await as(agent.key).patch(path, { status: "active" });
    expect(restored.body.memory).toMatchObject({ status: "active", archivedAt: null });
  });
});

describe("decisions and outcomes", () => {
  it("links an outcome to its decision both ways and refuses a second outcome", async () => {
    const saber = await createAgent({ kind: "internal", role: "specialist" });
    const decision = await as(saber.key).post(memories("me"), {
      tier: "learning",
      category: "decision",
      title: "Short BTC based on funding rate spike",
      confidence: 0.6,
      tags: ["btc"],
      decisionContext: { reasoning: "funding rate signal" },
    });
    const id = decision.body.memory.id;
    const res = await as(saber.key).post(`/api/v1/memories/${id}/outcome`, {
      result: "success",
      success: true,
      notes: "Funding rate signal validated. 3hr timeline was faster than expected 8hr.",
    });
    expect(res.status).toBe(201);
    expect(res.body.outcome).toMatchObject({
      tier: "learning",
      category: "outcome",
      title: "Outcome: Short BTC based on funding rate spike",
      relatedIds: [id],
      tags: ["btc"],
      outcome: { result: "success", success: true, decisionId: id },
    });
    expect(res.body.decision.outcome).toMatchObject({ result: "success", success: true, outcomeId: res.body.outcome.id });
    expect(res.body.decision.relatedIds).toEqual([res.body.outcome.id]);
    expect(typeof res.body.decision.outcome.scoredAt).toBe("string");

    const again = await as(saber.key).post(`/api/v1/memories/${id}/outcome`, { result: "loss", success: false });
    expect(again.status).toBe(409);
    const notDecision = await as(saber.key).post(`/api/v1/memories/${res.body.outcome.id}/outcome`, { result: "x", success: true });
    expect(notDecision.status).toBe(422);
    const decisions = await as(saber.key).get(memories("me", "?category=decision"));
    expect(decisions.body.memories[0].outcome.success).toBe(true);
  });

  it("records a team decision's outcome in the scorer's name", async () => {
    const saber = await createAgent({ kind: "internal", role: "specialist" });
    const sam = await createAgent({ kind: "internal", role: "specialist" });
    const decision = await as(saber.key).post(memories("me"), {
      tier: "learning",
      category: "decision",
      title: "Move all clients to SMS-first",
      confidence: 0.7,
      scope: "team",
    });
    const res = await as(sam.key).post(`/api/v1/memories/${decision.body.memory.id}/outcome`, { result: "reply rate up 40%", success: true });
    expect(res.status).toBe(201);
    expect(res.body.outcome).toMatchObject({ scope: "team", agentId: sam.id });
  });
});

describe("access tracking", () => {
  it("does not make a memory look recently changed when it is only read", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const m = await as(agent.key).post(memories("me"), insight());
    const read = await as(agent.key).get(`/api/v1/memories/${m.body.memory.id}`);
    expect(read.body.memory.accessedCount).toBe(1);
    expect(read.body.memory.updatedAt).toBe(m.body.memory.updatedAt);
    const edited = await as(agent.key).patch(`/api/v1/memories/${m.body.memory.id}`, { content: "changed" });
    expect(edited.body.memory.updatedAt).not.toBe(m.body.memory.updatedAt);
  });
});

describe("HQ roles", () => {
  it("lets curators and viewers read agent memory but only admins write it", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const m = await as(agent.key).post(memories("me"), insight());
    await as(agent.key).put("/api/v1/agents/me/documents/soul", { content: "# soul" });
    for (const role of ["curator", "viewer"] as const) {
      const user = await createHqUser(role);
      const call = (method: string, path: string, body?: unknown) => api(method, path, { cookie: user.cookie, body });
      expect((await call("GET", memories(agent.id))).body.total).toBe(1);
      expect((await call("GET", `/api/v1/agents/${agent.id}/documents/soul`)).body.content).toBe("# soul");
      expect((await call("GET", `/api/v1/agents/${agent.id}/boot`)).status).toBe(200);
      expect((await call("GET", `/api/v1/interactions?agentId=${agent.id}`)).status).toBe(200);
      expect((await call("PUT", `/api/v1/agents/${agent.id}/documents/soul`, { content: "changed" })).status).toBe(403);
      expect((await call("POST", memories(agent.id), insight())).status).toBe(403);
      expect((await call("PATCH", `/api/v1/memories/${m.body.memory.id}`, { status: "archived" })).status).toBe(403);
      expect((await call("GET", "/api/v1/embeddings/backfill")).status).toBe(403);
    }
    expect((await as(agent.key).get("/api/v1/agents/me/documents/soul")).body.content).toBe("# soul");
  });
});
