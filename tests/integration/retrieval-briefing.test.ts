import { afterEach, describe, expect, it, vi } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { EmbeddingUnavailableError, setEmbeddingProviderForTests } from "@/lib/embeddings";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { BRIEFING_TTL_MS, clearBriefingCache, getBriefing } from "@/lib/retrieval/context/briefing";

// The situational briefing (its 6-hour window and 5-minute cache) and context assembly.

const HOUR = 60 * 60 * 1000;
const tag = () => Math.random().toString(36).slice(2, 8);
const ago = (ms: number, from = Date.now()) => new Date(from - ms).toISOString();

async function event(agent: TestAgent, summary: string, occurredAt?: string) {
  const res = await as(agent.key).post("/api/v1/events", { kind: "tool.run", summary, ...(occurredAt ? { occurredAt } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const summaries = (b: { events: { summary: string }[] }) => b.events.map((e) => e.summary);
const callerOf = (a: TestAgent, kind: "internal" | "field", role: AgentCaller["role"]): AgentCaller => ({
  type: "agent",
  agentId: a.id,
  name: a.name,
  kind,
  role,
  clientId: a.clientId,
  kbAccess: "read",
});

afterEach(() => {
  vi.useRealTimers();
  setEmbeddingProviderForTests(undefined);
});

describe("GET /agents/{id}/briefing", () => {
  it("covers the last 6 hours across the agents, missions in flight, others' conversations and pending proposals", async () => {
    const t = tag();
    const [c1, c2] = [await createClient(), await createClient()];
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const colleague = await createAgent({ kind: "internal", role: "specialist" });
    const fieldManager = await createAgent({ kind: "field", role: "manager", clientId: c1.id });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: c1.id });
    const otherField = await createAgent({ kind: "field", role: "orchestrator", clientId: c2.id });

    await event(colleague, `inside ${t}`, ago(5 * HOUR));
    await event(colleague, `outside ${t}`, ago(7 * HOUR));
    await event(fieldManager, `same client ${t}`, ago(HOUR));
    await event(otherField, `other client ${t}`, ago(HOUR));
    await as(colleague.key).post("/api/v1/interactions", { channel: "email", direction: "inbound", speaker: "Lee", content: `colleague call ${t}` });
    await as(me.key).post("/api/v1/interactions", { channel: "email", direction: "inbound", content: `my own call ${t}` });
    await as(otherField.key).post("/api/v1/interactions", { channel: "sms", direction: "inbound", content: `other client call ${t}` });
    await as(fieldManager.key).post("/api/v1/interactions", { channel: "sms", direction: "inbound", content: `same client call ${t}` });
    expect((await admin.post("/api/v1/missions", { title: `Active mission ${t}`, status: "active" })).status).toBe(201);
    expect((await admin.post("/api/v1/missions", { title: `Finished mission ${t}`, status: "done" })).status).toBe(201);
    expect((await admin.post("/api/v1/missions", { title: `Other client mission ${t}`, status: "active", clientId: c2.id })).status).toBe(201);
    const contact = await as(fieldManager.key).post("/api/v1/contacts", { name: `Dana ${t}` });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    const suggestion = await as(field.key).post("/api/v1/suggestions", { contactId: contact.body.contact.id, key: "preferred_time", value: "mornings", confidence: 0.8 });
    expect(suggestion.status, JSON.stringify(suggestion.body)).toBe(201);
    const idea = await as(field.key).post("/api/v1/playbook-updates", { area: "follow-up", title: `Shorter reminder ${t}`, content: "One line, with the time." });
    expect(idea.status, JSON.stringify(idea.body)).toBe(201);

    const mine = await as(me.key).get(`/api/v1/agents/me/briefing`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ agentId: me.id, windowHours: 6, cached: false });
    expect(summaries(mine.body)).toEqual(expect.arrayContaining([`inside ${t}`, `same client ${t}`, `other client ${t}`]));
    expect(summaries(mine.body)).not.toContain(`outside ${t}`);
    const missions = mine.body.missions.map((m: { title: string; status: string }) => `${m.title}:${m.status}`);
    expect(missions).toContain(`Active mission ${t}:active`);
    expect(missions).not.toContain(`Finished mission ${t}:done`);
    const calls = mine.body.interactions.map((i: { excerpt: string }) => i.excerpt);
    expect(calls).toEqual(expect.arrayContaining([`colleague call ${t}`, `same client call ${t}`]));
    expect(calls).not.toContain(`my own call ${t}`);
    expect(mine.body.proposals.suggestions.count).toBeGreaterThanOrEqual(1);
    expect(mine.body.proposals.playbookUpdates.items.map((p: { title: string }) => p.title)).toContain(`Shorter reminder ${t}`);
    expect(mine.body.text).toContain(`inside ${t}`);
    expect(mine.body.text).toContain(`[active] Active mission ${t}`);

    // a field agent: its own client only — no HQ events, no other client's anything
    const theirs = await as(field.key).get(`/api/v1/agents/me/briefing`);
    expect(summaries(theirs.body)).toContain(`same client ${t}`);
    for (const foreign of [`inside ${t}`, `other client ${t}`]) expect(summaries(theirs.body)).not.toContain(foreign);
    const fieldCalls = theirs.body.interactions.map((i: { excerpt: string }) => i.excerpt);
    expect(fieldCalls).toContain(`same client call ${t}`);
    for (const foreign of [`colleague call ${t}`, `other client call ${t}`]) expect(fieldCalls).not.toContain(foreign);
    const fieldMissions = theirs.body.missions.map((m: { title: string }) => m.title);
    expect(fieldMissions).not.toContain(`Other client mission ${t}`);
    expect(fieldMissions).not.toContain(`Active mission ${t}`); // HQ's own missions are internal
    expect(theirs.body.proposals.suggestions.items.map((s: { contactName: string }) => s.contactName)).toContain(`Dana ${t}`);
    expect(JSON.stringify(theirs.body)).not.toContain(colleague.name);

    // another agent's briefing is not an agent's business; HQ may look at any
    expect((await as(field.key).get(`/api/v1/agents/${me.id}/briefing`)).status).toBe(404);
    expect((await admin.get(`/api/v1/agents/${field.id}/briefing`)).status).toBe(200);
  });

  it("is cached for 5 minutes per agent, then rebuilt with a window that moved with the clock", async () => {
    clearBriefingCache();
    const t = tag();
    const me = await createAgent({ kind: "internal", role: "manager" });
    const colleague = await createAgent({ kind: "internal", role: "specialist" });
    await event(colleague, `five hours ago ${t}`, ago(5 * HOUR));

    const first = await as(me.key).get("/api/v1/agents/me/briefing");
    expect(first.body.cached).toBe(false);
    expect(summaries(first.body)).toContain(`five hours ago ${t}`);

    await event(colleague, `just now ${t}`);
    const second = await as(me.key).get("/api/v1/agents/me/briefing");
    expect(second.body).toMatchObject({ cached: true, generatedAt: first.body.generatedAt });
    expect(summaries(second.body)).not.toContain(`just now ${t}`);
    // HQ looking at the agent gets the agent's cached briefing, not a fresh HQ view
    const hq = await admin.get(`/api/v1/agents/${me.id}/briefing`);
    expect(hq.body).toMatchObject({ cached: true, generatedAt: first.body.generatedAt });

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(first.body.generatedAt).getTime() + BRIEFING_TTL_MS - 1000);
    expect((await as(me.key).get("/api/v1/agents/me/briefing")).body.cached).toBe(true);

    vi.setSystemTime(new Date(first.body.generatedAt).getTime() + BRIEFING_TTL_MS + 1000);
    const third = await as(me.key).get("/api/v1/agents/me/briefing");
    expect(third.body.cached).toBe(false);
    expect(summaries(third.body)).toEqual(expect.arrayContaining([`just now ${t}`, `five hours ago ${t}`]));

    // two hours on, the event of "five hours ago" is seven hours old: out of the window
    vi.setSystemTime(new Date(first.body.generatedAt).getTime() + 2 * HOUR);
    const later = await as(me.key).get("/api/v1/agents/me/briefing");
    expect(later.body.cached).toBe(false);
    expect(summaries(later.body)).toContain(`just now ${t}`);
    expect(summaries(later.body)).not.toContain(`five hours ago ${t}`);
  });

  it("is built afresh when HQ changes the agent's role: a demoted orchestrator never sees conversations it may no longer read", async () => {
    clearBriefingCache();
    const t = tag();
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const colleague = await createAgent({ kind: "internal", role: "specialist" });
    const turn = await as(colleague.key).post("/api/v1/interactions", { channel: "chat", direction: "inbound", content: `Caller asked about ${t}` });
    expect(turn.status, JSON.stringify(turn.body)).toBe(201);
    const before = await as(me.key).get("/api/v1/agents/me/briefing");
    expect(before.body.text).toContain(t);

    expect((await admin.patch(`/api/v1/agents/${me.id}`, { role: "specialist" })).status).toBe(200);
    const after = await as(me.key).get("/api/v1/agents/me/briefing");
    expect(after.body.cached).toBe(false);
    expect(after.body.text).not.toContain(t);
  });

  it("takes an injected clock: the window is the 6 hours before `now`", async () => {
    const t = tag();
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const colleague = await createAgent({ kind: "internal", role: "specialist" });
    const now = Date.now();
    await event(colleague, `t-1h ${t}`, ago(HOUR, now));
    await event(colleague, `t-8h ${t}`, ago(8 * HOUR, now));
    await event(colleague, `t-13h ${t}`, ago(13 * HOUR, now));

    clearBriefingCache();
    const past = await getBriefing(callerOf(me, "internal", "orchestrator"), "me", { now: new Date(now - 4 * HOUR) });
    // window (now-10h, now-4h]: only the 8-hours-ago event
    expect(summaries(past).filter((s) => s.endsWith(t))).toEqual([`t-8h ${t}`]);
    expect(past.since).toEqual(new Date(now - 10 * HOUR));
  });
});

describe("GET /agents/{id}/context", () => {
  async function memory(agent: TestAgent, title: string, content = "") {
    const res = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", title, content, confidence: 0.9 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.memory.id as string;
  }

  it("assembles soul, scratchpad, the current situation, 3 relevant + 2 recent memories and the locked constants", async () => {
    const t = tag();
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const other = await createAgent({ kind: "internal", role: "orchestrator" });
    await as(me.key).put("/api/v1/agents/me/documents/soul", { content: `I am the migration lead ${t}.` });
    await as(me.key).put("/api/v1/agents/me/documents/working", { content: `- finish the cutover checklist ${t}` });
    expect((await admin.put(`/api/v1/locked-constants/pricing.test-${t}`, { label: `Test price ${t}`, value: "$123", category: "pricing" })).status).toBeLessThan(300);
    await event(other, `deploy finished ${t}`);

    const kestrel = [
      await memory(me, `Kestrel ${t} migration needs a maintenance window`, "Saturday 02:00 UTC."),
      await memory(me, `Kestrel ${t} migration rollback plan`, "Snapshot first."),
      await memory(me, `Kestrel ${t} migration owner`, "The database team."),
    ];
    const newest = [
      await memory(me, `Lunch order ${t}`, "Tacos on Fridays."),
      await memory(me, `Printer jam ${t}`, "Third floor."),
      await memory(me, `Parking pass ${t}`, "Renew in May."),
    ];
    const archived = await memory(me, `Kestrel ${t} migration draft (superseded)`);
    expect((await as(me.key).patch(`/api/v1/memories/${archived}`, { status: "archived" })).status).toBe(200);
    await memory(other, `Kestrel ${t} migration notes of another agent`);

    const res = await as(me.key).get(`/api/v1/agents/me/context?topic=${encodeURIComponent(`kestrel ${t} migration`)}`);
    expect(res.status).toBe(200);
    expect(res.body.sections.map((s: { title: string }) => s.title)).toEqual(["SOUL", "SCRATCHPAD", "CURRENT SITUATION", "RELEVANT MEMORIES", "LOCKED CONSTANTS"]);
    expect(res.body.memorySelection).toBe("relevance+recency");
    const picked = res.body.memories.map((m: { id: string; reason: string }) => [m.id, m.reason]);
    expect(picked.slice(0, 3).map((p: string[]) => p[1])).toEqual(["relevance", "relevance", "relevance"]);
    expect(new Set(picked.slice(0, 3).map((p: string[]) => p[0]))).toEqual(new Set(kestrel));
    // the two newest memories not already picked
    expect(picked.slice(3)).toEqual([
      [newest[2], "recency"],
      [newest[1], "recency"],
    ]);

    const text: string = res.body.text;
    expect(text).toContain(`═══ SOUL ═══\nI am the migration lead ${t}.`);
    expect(text).toContain(`═══ SCRATCHPAD ═══\n- finish the cutover checklist ${t}`);
    expect(text).toContain("═══ CURRENT SITUATION ═══\nLast 6 hours");
    expect(text).toContain(`deploy finished ${t}`);
    expect(text).toContain(`═══ RELEVANT MEMORIES ═══\n- learning/insight`);
    expect(text).toContain(`Kestrel ${t} migration rollback plan: Snapshot first.`);
    expect(text).toContain(`Test price ${t} (pricing.test-${t}): $123`);
    expect(text).not.toContain("superseded");
    expect(text).not.toContain("another agent");
    expect(text.indexOf("═══ SOUL")).toBeLessThan(text.indexOf("═══ CURRENT SITUATION"));

    // serving the memories counts as access; HQ viewing the same context does not
    const count = async (id: string) => {
      await flushAccessCounts(); // the counters are written in batches
      return (await (await getDatabase()).query<{ n: number }>("select accessed_count as n from memories where id = $1", [id]))[0]!.n;
    };
    expect(await count(kestrel[0]!)).toBe(1);
    const hq = await admin.get(`/api/v1/agents/${me.id}/context?topic=${encodeURIComponent(`kestrel ${t} migration`)}`);
    expect(hq.status).toBe(200);
    expect(hq.body.memories).toEqual(res.body.memories);
    expect(await count(kestrel[0]!)).toBe(1);
    expect((await as(other.key).get(`/api/v1/agents/${me.id}/context`)).status).toBe(404);
  });

  it("falls back to pure recency without a topic or when embeddings are unavailable", async () => {
    const t = tag();
    const me = await createAgent({ kind: "internal", role: "specialist" });
    const ids: string[] = [];
    for (const title of ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]) ids.push(await memory(me, `${title} ${t} kestrel`));
    const newestFive = ids.slice(1).reverse();

    const noTopic = await as(me.key).get("/api/v1/agents/me/context");
    expect(noTopic.body.memorySelection).toBe("recency");
    expect(noTopic.body.memories.map((m: { id: string }) => m.id)).toEqual(newestFive);

    setEmbeddingProviderForTests({
      name: "openai",
      model: "down",
      embed: async () => {
        throw new EmbeddingUnavailableError("provider down");
      },
    });
    const down = await as(me.key).get(`/api/v1/agents/me/context?topic=${encodeURIComponent(`alpha ${t} kestrel`)}`);
    expect(down.status).toBe(200);
    expect(down.body.memorySelection).toBe("recency");
    expect(down.body.memories.map((m: { id: string; reason: string }) => [m.id, m.reason])).toEqual(newestFive.map((id) => [id, "recency"]));

    setEmbeddingProviderForTests(undefined);
    const up = await as(me.key).get(`/api/v1/agents/me/context?topic=${encodeURIComponent(`alpha ${t}`)}`);
    expect(up.body.memorySelection).toBe("relevance+recency");
    expect(up.body.memories[0]).toMatchObject({ id: ids[0], reason: "relevance" });
  });
});
