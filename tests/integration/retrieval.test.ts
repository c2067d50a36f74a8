import { describe, expect, it } from "vitest";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, rareWord, type TestAgent } from "../helpers/fixtures";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { toVectorLiteral } from "@/lib/embeddings";
import { embedLocal, LOCAL_MODEL } from "@/lib/embeddings/local";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";

// POST /trigger and POST /retrieve through the real route handlers: levels, scopes, tenancy, what is
// never returned, access counting and the log.

const word = rareWord;

async function memory(agent: TestAgent, body: Record<string, unknown>) {
  const res = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", confidence: 0.8, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.memory as { id: string; title: string };
}

async function interaction(agent: TestAgent, content: string, extra: Record<string, unknown> = {}) {
  const res = await as(agent.key).post("/api/v1/interactions", { channel: "sms", direction: "inbound", speaker: "Pat", content, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.interaction as { id: string };
}

/** Knowledge entries straight into the table (the knowledge API is another domain's). */
async function knowledge(title: string, content: string, status: "published" | "archived" = "published") {
  const db = await getDatabase();
  const [row] = await db.query<{ id: string }>(
    `insert into knowledge_entries (title, content, category, tags, created_by, updated_by, status, embedding)
     values ($1, $2, 'procedure', '{}', 'test', 'test', $3, $4::vector) returning id`,
    [title, content, status, toVectorLiteral(embedLocal(`${title}\n\n${content}`))],
  );
  return row!.id;
}

const retrieve = (agent: TestAgent, body: Record<string, unknown>) => as(agent.key).post("/api/v1/retrieve", body);
const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);
const sources = (res: { body: { items: { source: string }[] } }) => new Set(res.body.items.map((i) => i.source));

describe("POST /retrieve routes each level to its scopes", () => {
  it("none searches nothing; local the agent's own memory; shared adds the team's; hq the knowledge base", async () => {
    const topic = word();
    const client = await createClient();
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const teammate = await createAgent({ kind: "internal", role: "orchestrator" });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });

    const own = await memory(me, { title: `The ${topic} valve failed twice in March`, content: "Replace the gasket first." });
    await as(me.key).put("/api/v1/agents/me/documents/working", { content: `Today: order a spare ${topic} valve.` });
    const call = await interaction(me, `Is the ${topic} valve fixed yet?`);
    const team = await memory(teammate, { scope: "team", title: `Team rule: ${topic} valves are replaced, never repaired` });
    const kb = await knowledge(`Replacing a ${topic} valve`, `Shut off the water, then unscrew the ${topic} valve.`);
    await memory(field, { title: `Pat's ${topic} valve was serviced in May` });

    const none = await retrieve(me, { message: "Thanks!" });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ level: "none", triggers: [], scopes: [], items: [], context: "" });

    const local = await retrieve(me, { message: `Remember when the ${topic} valve failed?` });
    expect(local.body.level).toBe("local");
    expect(local.body.triggers).toContainEqual({ kind: "past_reference", match: "remember when" });
    expect(local.body.scopes).toEqual(["memories", "documents", "interactions"]);
    expect(ids(local)).toEqual(expect.arrayContaining([own.id, call.id]));
    expect(sources(local)).toEqual(new Set(["memories", "documents", "interactions"]));
    expect(ids(local)).not.toContain(team.id);
    expect(ids(local)).not.toContain(kb);
    expect(local.body.context).toContain("═══ RETRIEVED CONTEXT ═══");
    expect(local.body.context).toContain(own.title);
    expect(local.body.tookMs).toBeGreaterThan(0);
    for (const item of local.body.items) {
      expect(item).toEqual(
        expect.objectContaining({ source: expect.any(String), id: expect.any(String), title: expect.any(String), content: expect.any(String), score: expect.any(Number), createdAt: expect.any(String) }),
      );
      expect(item.score).toBeGreaterThan(0);
      expect(item.score).toBeLessThanOrEqual(1);
    }
    // best first
    const scores = local.body.items.map((i: { score: number }) => i.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    const shared = await retrieve(me, { message: `Should the team keep repairing the ${topic} valves? What did we decide?` });
    expect(shared.body.level).toBe("shared");
    expect(shared.body.scopes).toEqual(["memories", "documents", "interactions", "team"]);
    expect(ids(shared)).toContain(team.id);
    expect(ids(shared)).toContain(own.id);
    expect(ids(shared)).not.toContain(kb);

    const hq = await retrieve(field, { message: `How do I replace a ${topic} valve?` });
    expect(hq.body.level).toBe("hq");
    expect(hq.body.scopes).toEqual(["memories", "documents", "interactions", "knowledge"]);
    expect(ids(hq)).toContain(kb);
    expect(hq.body.items.find((i: { id: string }) => i.id === kb).source).toBe("knowledge");
    expect(ids(hq)).not.toContain(team.id);
    expect(ids(hq)).not.toContain(own.id);
  });

  it("explicit scopes skip the classifier and search exactly those scopes", async () => {
    const topic = word();
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const own = await memory(me, { title: `${topic} notes` });
    const kb = await knowledge(`${topic} procedure`, `How ${topic} is done.`);
    const res = await retrieve(me, { message: `${topic}`, scopes: ["knowledge"], limit: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ level: "hq", triggers: [], scopes: ["knowledge"] });
    expect(ids(res)).toEqual([kb]);
    const both = await retrieve(me, { message: `${topic}`, scopes: ["knowledge", "memories"], limit: 1 });
    expect(both.body.scopes).toEqual(["memories", "knowledge"]);
    expect(both.body.items).toHaveLength(1);
    expect([own.id, kb]).toContain(both.body.items[0].id);
  });

  it("validates the body", async () => {
    const me = await createAgent({ kind: "internal", role: "specialist" });
    expect((await retrieve(me, { message: "" })).status).toBe(422);
    expect((await retrieve(me, { message: "x", limit: 51 })).status).toBe(422);
    expect((await retrieve(me, { message: "x", scopes: ["everything"] })).status).toBe(422);
    expect((await retrieve(me, { message: "x", extra: true })).status).toBe(422);
    const isolated = await createAgent({ kind: "internal", role: "isolated" });
    expect((await retrieve(isolated, { message: "remember when" })).status).toBe(403);
  });
});

describe("tenancy", () => {
  it("a field agent never gets team knowledge, another agent's memory or another client's conversations", async () => {
    const topic = word();
    const [c1, c2] = [await createClient(), await createClient()];
    const f1 = await createAgent({ kind: "field", role: "orchestrator", clientId: c1.id });
    const f1b = await createAgent({ kind: "field", role: "manager", clientId: c1.id });
    const f2 = await createAgent({ kind: "field", role: "orchestrator", clientId: c2.id });
    const internal = await createAgent({ kind: "internal", role: "manager" });

    const mine = await memory(f1, { title: `${topic} pricing for the Smith job` });
    const colleague = await memory(f1b, { title: `${topic} private note of a colleague` });
    const sameClientCall = await interaction(f1b, `The ${topic} quote was accepted`);
    const otherClientCall = await interaction(f2, `Another client's ${topic} complaint`);
    const otherClientMemory = await memory(f2, { title: `${topic} another client's memory` });
    const team = await memory(internal, { scope: "team", title: `${topic} internal strategy` });
    const internalCall = await interaction(internal, `${topic} internal call`, { clientId: c1.id });

    const everything = ["memories", "documents", "interactions", "knowledge"];
    const res = await retrieve(f1, { message: `${topic}`, scopes: everything, limit: 50 });
    expect(res.status).toBe(200);
    // control: its own memory and its client's conversations are found
    expect(ids(res)).toEqual(expect.arrayContaining([mine.id, sameClientCall.id, internalCall.id]));
    for (const foreign of [colleague.id, otherClientCall.id, otherClientMemory.id, team.id]) expect(ids(res)).not.toContain(foreign);

    expect((await retrieve(f1, { message: `${topic}`, scopes: ["team"] })).status).toBe(403);
    // no classified message reaches team scope for a field agent
    for (const message of [`Should we change the ${topic} approach?`, `Remember when we did ${topic}?`, `Let's plan the ${topic} roadmap`]) {
      const r = await retrieve(f1, { message });
      expect(r.body.scopes).not.toContain("team");
      expect(ids(r)).not.toContain(team.id);
    }

    // an internal agent does not get the field agent's private memory either
    const theirs = await retrieve(internal, { message: `${topic}`, scopes: ["memories", "team"], limit: 50 });
    expect(ids(theirs)).toContain(team.id);
    expect(ids(theirs)).not.toContain(mine.id);
  });

  it("an agent retrieves only as itself; HQ retrieves as the agent it names and sees exactly what the agent sees", async () => {
    const topic = word();
    const client = await createClient();
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const other = await createAgent({ kind: "internal", role: "orchestrator" });
    await memory(field, { title: `${topic} customer prefers mornings` });
    await interaction(field, `${topic} call about the estimate`);
    await memory(other, { scope: "team", title: `${topic} team knowledge` });
    await memory(other, { title: `${topic} someone else's memory` });
    await knowledge(`${topic} escalation rules`, `When ${topic} goes wrong, escalate.`);

    expect((await retrieve(field, { message: "remember when", agentId: other.id })).status).toBe(404);
    expect((await retrieve(field, { message: "remember when", agentId: "me" })).status).toBe(200);
    expect((await admin.post("/api/v1/retrieve", { message: "remember when" })).status).toBe(422);
    expect((await admin.post("/api/v1/retrieve", { message: "remember when", agentId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);

    const message = `How do I handle the ${topic} estimate?`;
    const asAgent = await retrieve(field, { message, limit: 20 });
    const viewer = await createHqUser("viewer");
    const asHq = await api("POST", "/api/v1/retrieve", { cookie: viewer.cookie, body: { message, agentId: field.id, limit: 20 } });
    expect(asHq.status).toBe(200);
    expect(asAgent.body.items.length).toBeGreaterThanOrEqual(3);
    expect(asHq.body.level).toBe(asAgent.body.level);
    expect(ids(asHq)).toEqual(ids(asAgent));
    // HQ itself may read everything, but the playground shows only the agent's view
    expect(asHq.body.items.map((i: { title: string }) => i.title).join()).not.toMatch(/team knowledge|someone else/);

    const audit = await admin.get("/api/v1/audit?action=retrieval.impersonate&limit=5");
    expect(audit.body.entries[0]).toMatchObject({
      action: "retrieval.impersonate",
      actorType: "hq_user",
      targetId: field.id,
      details: expect.objectContaining({ endpoint: "retrieve" }),
    });
  });
});

describe("the candidate functions: full text (security definer) applies each table's read policy itself, vectors run under RLS", () => {
  it("return another agent's memories, another client's conversations or a specialist's reads never", async () => {
    const topic = word();
    const [c1, c2] = [await createClient(), await createClient()];
    const a = await createAgent({ kind: "internal", role: "orchestrator" });
    const b = await createAgent({ kind: "internal", role: "specialist" });
    const field = await createAgent({ kind: "field", role: "manager", clientId: c1.id });
    const fieldSpecialist = await createAgent({ kind: "field", role: "specialist", clientId: c1.id });
    const bMemory = await memory(b, { title: `${topic} private to b` });
    const aMemory = await memory(a, { title: `${topic} private to a` });
    const team = await memory(b, { scope: "team", title: `${topic} shared with the team` });
    const otherCall = await interaction(a, `${topic} call for client two`, { clientId: c2.id });
    const ownCall = await interaction(field, `${topic} call for client one`);
    const db = await getDatabase();
    const callerOf = (t: TestAgent, kind: "internal" | "field", role: "manager" | "orchestrator" | "specialist") => ({
      type: "agent" as const, agentId: t.id, name: t.name, kind, role, clientId: t.clientId, kbAccess: "read" as const,
    });
    const run = (who: ReturnType<typeof callerOf>, sql: string, params: unknown[]) =>
      withClaims(db, claimsFor(who), (tx) => tx.query<{ id: string }>(sql, params)).then((rows) => rows.map((r) => r.id));
    const memories = "select id from mhq.memory_lexical_candidates($1, $2, $3, 50)";
    const interactions = "select id from mhq.interaction_lexical_candidates($1, $2, $3, 50)";

    // control: each caller finds its own rows
    expect(await run(callerOf(a, "internal", "orchestrator"), memories, [topic, "agent", a.id])).toEqual([aMemory.id]);
    expect(await run(callerOf(field, "field", "manager"), interactions, [topic, null, c1.id])).toEqual([ownCall.id]);
    // another agent's private memories: nothing, whatever owner is asked for
    expect(await run(callerOf(a, "internal", "orchestrator"), memories, [topic, "agent", b.id])).toEqual([]);
    expect(bMemory.id).toBeTruthy();
    // team scope: internal agents yes, field agents no
    expect(await run(callerOf(a, "internal", "orchestrator"), memories, [topic, "team", null])).toEqual([team.id]);
    expect(await run(callerOf(field, "field", "manager"), memories, [topic, "team", null])).toEqual([]);
    // a field agent naming another client, or no client, gets its own client's rows at most
    expect(await run(callerOf(field, "field", "manager"), interactions, [topic, null, c2.id])).toEqual([]);
    expect(await run(callerOf(field, "field", "manager"), interactions, [topic, a.id, null])).toEqual([]);
    expect(otherCall.id).toBeTruthy();
    // specialists do not read interactions at all (interactions_select)
    expect(await run(callerOf(fieldSpecialist, "field", "specialist"), interactions, [topic, null, c1.id])).toEqual([]);
    expect(await run(callerOf(b, "internal", "specialist"), interactions, [topic, a.id, null])).toEqual([]);

    // the vector candidate functions are security invoker: RLS alone decides, whatever is asked for
    const near = toVectorLiteral(embedLocal(topic));
    const memoryVectors = `select id from mhq.memory_vector_candidates($1::vector, '${LOCAL_MODEL}', $2, $3, now(), 50)`;
    const interactionVectors = `select id from mhq.interaction_vector_candidates($1::vector, '${LOCAL_MODEL}', $2, $3, 50)`;
    expect(await run(callerOf(a, "internal", "orchestrator"), memoryVectors, [near, "agent", a.id])).toContain(aMemory.id);
    expect(await run(callerOf(a, "internal", "orchestrator"), memoryVectors, [near, "agent", b.id])).toEqual([]);
    expect(await run(callerOf(field, "field", "manager"), memoryVectors, [near, "team", null])).toEqual([]);
    expect(await run(callerOf(field, "field", "manager"), interactionVectors, [near, null, c1.id])).toContain(ownCall.id);
    expect(await run(callerOf(field, "field", "manager"), interactionVectors, [near, null, c2.id])).toEqual([]);
    expect(await run(callerOf(fieldSpecialist, "field", "specialist"), interactionVectors, [near, null, c1.id])).toEqual([]);
  });
});

describe("the trigger vocabulary comes from the data", () => {
  it("names agents, clients, trigger terms, contacts and missions for internal agents; a field agent hears only its own client", async () => {
    const suffix = Math.random().toString(36).slice(2, 6);
    const internalName = `Orinthia${suffix}`;
    const clientName = `Quillfeather ${suffix}`;
    const otherClientName = `Brambleton ${suffix}`;
    const term = `gutterflux${suffix}`;
    const client = await createClient(clientName, [term]);
    await createClient(otherClientName, [`otherterm${suffix}`]);
    await createAgent({ name: internalName, kind: "internal", role: "specialist" });
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const manager = await createAgent({ kind: "field", role: "manager", clientId: client.id });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const mission = await admin.post("/api/v1/missions", { title: `Operation Tidewater ${suffix}`, status: "active" });
    expect(mission.status).toBe(201);
    const contact = await as(manager.key).post("/api/v1/contacts", { name: `Wilhelmina Okafor${suffix}` });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);

    const trigger = (agent: TestAgent, message: string) => as(agent.key).post("/api/v1/trigger", { message });

    const internalRes = await trigger(me, `What did ${internalName} find about ${otherClientName}?`);
    expect(internalRes.status).toBe(200);
    expect(internalRes.body).toMatchObject({ agentId: me.id, variant: "internal", level: "shared" });
    expect(internalRes.body.triggers).toEqual(
      expect.arrayContaining([
        { kind: "name", match: internalName },
        { kind: "name", match: otherClientName },
      ]),
    );
    expect((await trigger(me, `Status of operation tidewater ${suffix}?`)).body.triggers).toContainEqual({
      kind: "name",
      match: `Operation Tidewater ${suffix}`,
    });

    // the field agent: its own client, terms and contacts trigger…
    const news = await trigger(field, `Any news on the ${term} job?`);
    expect(news.body).toMatchObject({ variant: "field", level: "local" });
    expect(news.body.triggers).toContainEqual({ kind: "name", match: term });
    expect((await trigger(field, `wilhelmina okafor${suffix} called`)).body.triggers).toEqual([
      { kind: "name", match: `Wilhelmina Okafor${suffix}` },
    ]);
    // …internal team names, other clients and missions never do
    for (const message of [`Ask ${internalName} about it`, `${otherClientName} again`, `otherterm${suffix} update`, `Operation Tidewater ${suffix}`]) {
      const r = await trigger(field, message);
      expect(r.body, message).toEqual({ agentId: field.id, variant: "field", level: "none", triggers: [] });
    }

    // HQ classifies as the agent it names
    const hq = await admin.post("/api/v1/trigger", { message: `Ask ${internalName} about it`, agentId: field.id });
    expect(hq.body).toMatchObject({ agentId: field.id, level: "none", triggers: [] });
    expect((await admin.post("/api/v1/trigger", { message: "hello" })).status).toBe(422);
  });

  it("internal-only names never come back to a field agent in results", async () => {
    const suffix = Math.random().toString(36).slice(2, 6);
    const secret = `Zarathustrix${suffix}`;
    const client = await createClient();
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const internal = await createAgent({ name: secret, kind: "internal", role: "manager" });
    await memory(internal, { scope: "team", title: `${secret} owns the pricing experiment` });
    await memory(internal, { title: `${secret} private reasoning` });
    const r = await retrieve(field, { message: `How do I ask ${secret} about pricing? It's not working`, limit: 50 });
    expect(r.body.level).toBe("hq");
    expect(JSON.stringify(r.body)).not.toContain(`${secret} owns`);
    expect(JSON.stringify(r.body)).not.toContain(`${secret} private`);
    expect(r.body.triggers.filter((t: { kind: string }) => t.kind === "name")).toEqual([]);
  });
});

describe("what retrieval never returns", () => {
  it("archived and expired memories, and archived knowledge entries", async () => {
    const topic = word();
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const live = await memory(me, { title: `${topic} live insight` });
    const archived = await memory(me, { title: `${topic} archived insight` });
    const expired = await memory(me, { title: `${topic} expired guess`, confidence: 0.45 });
    const teamArchived = await memory(me, { scope: "team", title: `${topic} archived team rule` });
    const liveKb = await knowledge(`${topic} current procedure`, `${topic} step one.`);
    const archivedKb = await knowledge(`${topic} old procedure`, `${topic} the way we used to.`, "archived");

    expect((await as(me.key).patch(`/api/v1/memories/${archived.id}`, { status: "archived" })).status).toBe(200);
    expect((await as(me.key).patch(`/api/v1/memories/${teamArchived.id}`, { status: "archived" })).status).toBe(200);
    // a low-confidence learning entry past its 7 days (the lifecycle job has not archived it yet)
    await (await getDatabase()).query("update memories set expires_at = now() - interval '1 minute' where id = $1", [expired.id]);

    const res = await retrieve(me, { message: `${topic}`, scopes: ["memories", "team", "knowledge"], limit: 50 });
    expect(ids(res)).toEqual(expect.arrayContaining([live.id, liveKb]));
    for (const gone of [archived.id, expired.id, teamArchived.id, archivedKb]) expect(ids(res)).not.toContain(gone);

    // the same through both vector paths: exact ranking (few rows) and the HNSW walk (forced by an
    // exact_scan_max of 0, the path agents with thousands of rows take)
    const db = await getDatabase();
    const caller = { type: "agent" as const, agentId: me.id, name: me.name, kind: "internal" as const, role: "orchestrator" as const, clientId: null, kbAccess: "read" as const };
    const near = toVectorLiteral(embedLocal(`${topic} insight rule`));
    const vectorSearch = (scope: "agent" | "team", exactScanMax: number) =>
      withClaims(db, claimsFor(caller), (tx) =>
        tx.query<{ id: string }>(
          "select id from search_memories('', $1::vector, $5, 50, $2, $3::uuid, 0.6, 0, $4, now())",
          [near, scope, scope === "agent" ? me.id : null, exactScanMax, LOCAL_MODEL],
        ),
      ).then((rows) => rows.map((r) => r.id).sort());
    for (const path of [300, 0]) {
      const own = await vectorSearch("agent", path);
      expect(own, `own memories, exact_scan_max ${path}`).toEqual([live.id]);
      expect(await vectorSearch("team", path), `team memories, exact_scan_max ${path}`).not.toContain(teamArchived.id);
    }
  });
});

describe("a message the local model knows no word of", () => {
  it("is matched by its words, never as the same meaning as every other such text", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const code = `qz${rareWord().replace(/[^a-z]/g, "")}`;
    for (const content of [`${code} vrnx`, "ございます こんにちは", "x"]) {
      const w = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: content, content, confidence: 0.9 });
      expect(w.status, JSON.stringify(w.body)).toBe(201);
    }
    const ask = async (message: string) => {
      const r = await as(agent.key).post("/api/v1/retrieve", { message, scopes: ["memories", "documents"] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.items.map((i: { title: string }) => i.title);
    };
    // unknown words match nothing but text that holds them
    expect(await ask("zxqv plorf wibble grontch")).toEqual([]);
    expect(await ask("안녕하세요 감사합니다")).toEqual([]);
    expect(await ask(`${code} please`)).toEqual([`${code} vrnx`]);
  });
});

describe("access tracking and the retrieval log", () => {
  it("counts what was served to the agent (not HQ's playground runs) and logs every call", async () => {
    const topic = word();
    const client = await createClient();
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const m = await memory(field, { title: `${topic} gate code is 4411` });
    const kb = await knowledge(`${topic} gate procedure`, `Always ask for the ${topic} gate code.`);

    // the counters are written in batches (lib/retrieval/usage/access-counts.ts): flush before reading
    const counts = async () => {
      await flushAccessCounts();
      const [row] = await (await getDatabase()).query<{ memory: number; knowledge: number }>(
        `select (select accessed_count from memories where id = $1) as memory,
                (select accessed_count from knowledge_entries where id = $2) as knowledge`,
        [m.id, kb],
      );
      return row!;
    };
    expect(await counts()).toEqual({ memory: 0, knowledge: 0 });
    const res = await retrieve(field, { message: `How do I get past the ${topic} gate?` });
    expect(ids(res)).toEqual(expect.arrayContaining([m.id, kb]));
    expect(await counts()).toEqual({ memory: 1, knowledge: 1 });
    const hq = await admin.post("/api/v1/retrieve", { message: `How do I get past the ${topic} gate?`, agentId: field.id });
    expect(ids(hq)).toEqual(expect.arrayContaining([m.id, kb]));
    expect(await counts()).toEqual({ memory: 1, knowledge: 1 });
    // two more calls before a flush: one update per row, counting both
    for (let i = 0; i < 2; i++) expect(ids(await retrieve(field, { message: `How do I get past the ${topic} gate?` }))).toContain(m.id);
    const after = await counts();
    expect(after.memory).toBe(3);

    const db = await getDatabase();
    const log = await db.query<{ caller_type: string; level: string; items: { source: string; id: string }[]; took_ms: number; client_id: string }>(
      "select caller_type, level, items, took_ms, client_id from retrieval_log where agent_id = $1 and endpoint = 'retrieve' order by occurred_at",
      [field.id],
    );
    expect(log.map((l) => [l.caller_type, l.level])).toEqual([
      ["agent", "hq"],
      ["hq", "hq"],
      ["agent", "hq"],
      ["agent", "hq"],
    ]);
    expect(log[0]!.items).toEqual(res.body.items.map((i: { source: string; id: string }) => ({ source: i.source, id: i.id })));
    expect(log[0]!.took_ms).toBeGreaterThan(0);
    expect(log[0]!.client_id).toBe(client.id);

    // agents write the log but never read it; HQ reads it
    const caller = { type: "agent" as const, agentId: field.id, name: field.name, kind: "field" as const, role: "orchestrator" as const, clientId: client.id, kbAccess: "read" as const };
    expect(await withClaims(db, claimsFor(caller), (tx) => tx.query("select id from retrieval_log"))).toEqual([]);
    await expect(
      withClaims(db, claimsFor(caller), (tx) =>
        tx.query("insert into retrieval_log (agent_id, endpoint, caller_type, took_ms) values ($1, 'retrieve', 'agent', 1)", [field.id]),
      ),
    ).rejects.toThrow(/row-level security/); // client_id must be its own client
    const stats = await admin.get("/api/v1/retrieval/stats?days=1");
    expect(stats.status).toBe(200);
    const today = stats.body.perDay.at(-1);
    expect(today.hq).toBeGreaterThanOrEqual(1);
    expect(stats.body.totals.playgroundRuns).toBeGreaterThanOrEqual(1);
    expect(stats.body.knowledge.mostRetrieved.map((k: { id: string }) => k.id)).toContain(kb);
    expect((await as(field.key).get("/api/v1/retrieval/stats")).status).toBe(403);
  });

  it("folding accesses rewrites a served row on its own page, adding nothing to the table's indexes", async () => {
    // a counter update that touches no indexed column and finds room on the page is heap-only: the
    // vector indexes, whose new entries are the costly part of an update, are left alone
    const topic = word();
    const client = await createClient();
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const m = await memory(field, { title: `${topic} ladder is in the van` });
    const kb = await knowledge(`${topic} ladder safety`, `Check the ${topic} ladder feet before climbing.`);
    await flushAccessCounts();
    const db = await getDatabase();
    // this transaction's update counts per table, read before and after the fold (the embedded
    // engine reports counts not yet flushed from earlier transactions too, hence the difference)
    const inPlace = await db.transaction(async (tx) => {
      const stats = () =>
        tx.query<{ relname: string; updates: number; in_place: number }>(
          `select relname, n_tup_upd::int as updates, n_tup_hot_upd::int as in_place
             from pg_stat_xact_user_tables where relname in ('memories', 'knowledge_entries') order by relname`,
        );
      const before = await stats();
      await tx.query("select mhq.record_access($1::uuid[], $2::uuid[])", [[m.id], [kb]]);
      await tx.query("select mhq.fold_access_events(1000)");
      const after = await stats();
      return after.map((a) => {
        const b = before.find((x) => x.relname === a.relname);
        return { relname: a.relname, updates: a.updates - (b?.updates ?? 0), in_place: a.in_place - (b?.in_place ?? 0) };
      });
    });
    expect(inPlace.map((r) => r.relname)).toEqual(["knowledge_entries", "memories"]);
    for (const r of inPlace) {
      expect(r.updates, r.relname).toBeGreaterThan(0);
      expect(r.in_place, r.relname).toBe(r.updates);
    }
    const [row] = await db.query<{ memory: number; knowledge: number }>(
      "select (select accessed_count from memories where id = $1) as memory, (select accessed_count from knowledge_entries where id = $2) as knowledge",
      [m.id, kb],
    );
    expect(row).toEqual({ memory: 1, knowledge: 1 });
  });
});
