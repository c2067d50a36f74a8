import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { toVectorLiteral } from "@/lib/embeddings";
import { embedLocal } from "@/lib/embeddings/local";
import { runBatchJanitor } from "@/lib/memories/interaction-batches";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { foldAccessEvents } from "@/lib/retrieval/usage/access-queries";
import { admin, as } from "../helpers/api";
import { transport, withSlowRows } from "../helpers/db";
import { createAgent, createClient, rareWord, type TestAgent } from "../helpers/fixtures";
import { currentTestDatabase } from "../helpers/setup-env";

// Invariants that only hold if the SQL is right under true concurrency. The route handlers share a
// pool of 10 connections, so the concurrent calls below run their statements at the same time on a
// real PostgreSQL server; extra pools (`connect()`) add writers from other "instances".
// PGlite runs one statement at a time, so there these races cannot happen and the suite is skipped.
const REAL = transport === "postgres";
const reason = "real PostgreSQL only (TEST_TRANSPORT=postgres): PGlite executes one statement at a time, so no race can occur";

const internalClaims = (a: TestAgent) =>
  claimsFor({ type: "agent", agentId: a.id, name: a.name, kind: "internal", role: "specialist", clientId: null, kbAccess: "read" });
const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort((a, b) => a - b);
const count = (rs: { status: number }[], s: number) => rs.filter((r) => r.status === s).length;

describe.runIf(REAL)(`concurrent writers on a real server — ${reason}`, () => {
  let client: { id: string };
  let manager: TestAgent;
  let specialist: TestAgent;
  let field: TestAgent;

  beforeAll(async () => {
    client = await createClient();
    manager = await createAgent({ kind: "internal", role: "manager" });
    specialist = await createAgent({ kind: "internal", role: "specialist", kbAccess: "write" });
    field = await createAgent({ kind: "field", role: "specialist", clientId: client.id });
  });

  it("one winner among concurrent expectedVersion writers of a document", async () => {
    const doc = "/api/v1/agents/me/documents/working";
    const first = await as(specialist.key).put(doc, { content: "v1" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const version = first.body.version;
    const writers = Array.from({ length: 10 }, (_, i) => as(specialist.key).put(doc, { content: `writer ${i}`, expectedVersion: version }));
    const results = await Promise.all(writers);
    expect(count(results, 200), JSON.stringify(statuses(results))).toBe(1);
    expect(count(results, 409)).toBe(9);
    const winner = results.findIndex((r) => r.status === 200);
    const now = await as(specialist.key).get(doc);
    expect(now.body).toMatchObject({ content: `writer ${winner}`, version: version + 1 });
  });

  it("one winner among concurrent expectedVersion writers of a knowledge entry", async () => {
    const created = await as(specialist.key).post("/api/v1/knowledge", { title: "Concurrent edit", content: "v1", category: "procedure" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, version } = created.body.entry;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => as(specialist.key).patch(`/api/v1/knowledge/${id}`, { content: `writer ${i}`, expectedVersion: version })),
    );
    expect(count(results, 200), JSON.stringify(statuses(results))).toBe(1);
    expect(count(results, 409)).toBe(9);
    const versions = await admin.get(`/api/v1/knowledge/${id}/versions`);
    expect(versions.body.versions).toHaveLength(2);
  });

  it("never exceeds the 200-active-memory cap under concurrent writes", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const db = await getDatabase();
    await db.query(
      `insert into memories (agent_id, tier, category, title, confidence)
       select $1, 'learning', 'insight', 'filler ' || g, 0.5 from generate_series(1, 195) g`,
      [agent.id],
    );
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        as(agent.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", title: `concurrent ${i}`, confidence: 0.9 }),
      ),
    );
    expect(statuses(results).every((s) => s === 201), JSON.stringify(statuses(results))).toBe(true);
    const [{ active }] = (await db.query<{ active: number }>(
      `select count(*)::int as active from memories where agent_id = $1 and scope = 'agent' and status = 'active'`,
      [agent.id],
    )) as [{ active: number }];
    expect(active).toBe(200);
    // every new memory (higher confidence) survived; 25 fillers were archived
    const [{ kept }] = (await db.query<{ kept: number }>(
      `select count(*)::int as kept from memories where agent_id = $1 and status = 'active' and title like 'concurrent %'`,
      [agent.id],
    )) as [{ kept: number }];
    expect(kept).toBe(30);
  });

  it("the manager pass run from several connections at once approves each suggestion once", async () => {
    const contacts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await as(manager.key).post("/api/v1/contacts", { name: `Race Person ${i}`, clientId: client.id });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      contacts.push(c.body.contact.id);
    }
    const proposed: string[] = [];
    for (const contactId of contacts) {
      for (const key of ["preferred_time", "water_heater", "gate_code_hint", "dog_name", "roof_type"]) {
        const s = await as(field.key).post("/api/v1/suggestions", { contactId, key, value: `${key} value`, confidence: 0.95 });
        expect(s.status, JSON.stringify(s.body)).toBe(201);
        proposed.push(s.body.suggestion.id);
      }
    }
    const passes = await Promise.all(Array.from({ length: 4 }, () => as(manager.key).post("/api/v1/review/run", {})));
    expect(statuses(passes)).toEqual([200, 200, 200, 200]);
    const decided = passes.flatMap((p) => p.body.items.filter((i: any) => i.outcome === "approved").map((i: any) => i.id));
    expect(decided.sort()).toEqual([...proposed].sort());
    const db = await getDatabase();
    const [{ facts, audits }] = (await db.query<{ facts: number; audits: number }>(
      `select (select count(*)::int from facts where contact_id = any ($1::uuid[]) and status = 'active') as facts,
              (select count(*)::int from audit_log where action = 'suggestion.auto_approve' and target_id::text = any ($2::text[])) as audits`,
      [contacts, proposed],
    )) as [{ facts: number; audits: number }];
    expect(facts).toBe(proposed.length);
    expect(audits).toBe(proposed.length);
  });

  it("two manager passes that claimed suggestions of the same contacts in opposite orders both complete", async () => {
    const db = await getDatabase();
    // nothing older waiting: the suggestions below are the first two claims of each pass
    expect((await as(manager.key).post("/api/v1/review/run", { limit: 1000 })).status).toBe(200);
    const [x, y] = await Promise.all(
      ["Order Person X", "Order Person Y"].map(async (name) => (await as(manager.key).post("/api/v1/contacts", { name, clientId: client.id })).body.contact.id as string),
    );
    const marker = `slow ${rareWord()}`;
    // pass one claims (X, Y), pass two (Y, X); each first fact written is slowed by a test-only
    // trigger, so both passes hold their first contact's fact lock when they reach for the second
    const plan: [string, string, string][] = [[x!, "gate_code_hint", marker], [y!, "dog_name", "Rex"], [y!, "gate_code_hint", marker], [x!, "dog_name", "Bo"]];
    for (const [contactId, key, value] of plan) {
      const s = await as(field.key).post("/api/v1/suggestions", { contactId, key, value, confidence: 0.95 });
      expect(s.status, JSON.stringify(s.body)).toBe(201);
    }
    const slowFirstFacts = { name: "aa_test_slow_fact", table: "facts", event: "insert", when: "new.value like 'slow %'", seconds: 0.6 } as const;
    await withSlowRows(db, slowFirstFacts, async () => {
      const first = as(manager.key).post("/api/v1/review/run", { limit: 2 });
      await new Promise((r) => setTimeout(r, 150));
      const second = as(manager.key).post("/api/v1/review/run", { limit: 2 });
      const passes = await Promise.all([first, second]);
      expect(passes.map((p) => [p.status, p.body.items?.length]), JSON.stringify(passes.map((p) => p.body))).toEqual([[200, 2], [200, 2]]);
    });
    const facts = await db.query<{ n: number }>("select count(*)::int as n from facts where contact_id = any ($1::uuid[]) and status = 'active'", [[x, y]]);
    expect(facts[0]!.n).toBe(4);
  });

  it("retrievals and knowledge searches run alongside counter folds without deadlock, and every access is counted", async () => {
    const db = await getDatabase();
    const topic = rareWord();
    // twelve entries every search serves, listed in a different order by different queries
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const title = `${topic} procedure ${i}`;
      const content = `How to handle ${topic} case ${i}: ${"step ".repeat(i + 1)}`;
      const [row] = await db.query<{ id: string }>(
        `insert into knowledge_entries (title, content, category, tags, created_by, updated_by, status, embedding)
         values ($1, $2, 'procedure', '{}', 'test', 'test', 'published', $3::vector) returning id`,
        [title, content, toVectorLiteral(embedLocal(`${title}\n\n${content}`))],
      );
      ids.push(row!.id);
    }
    for (let i = 0; i < 6; i++) {
      const m = await as(specialist.key).post("/api/v1/agents/me/memories", {
        tier: "learning", category: "insight", title: `${topic} lesson ${i}`, content: `The ${topic} lesson number ${i}`, confidence: 0.8,
      });
      expect(m.status).toBe(201);
    }
    await flushAccessCounts();
    const before = await db.query<{ n: number }>(`select coalesce(sum(accessed_count), 0)::int as n from knowledge_entries where id = any ($1::uuid[])`, [ids]);

    // a second "instance" folding on its own pool the whole time
    const other = currentTestDatabase().connect!(3);
    let stop = false;
    const folder = (async () => {
      let folds = 0;
      while (!stop) {
        await other.transaction((tx) => foldAccessEvents(tx, { limit: 5 }));
        folds++;
      }
      return folds;
    })();

    // 40 requests at once from each key: more than a caller may have waiting by default, so an HQ
    // admin raises these two agents' own caps first, as for an importer (they hold from each agent's
    // next request on)
    for (const agent of [field, specialist]) {
      expect((await admin.patch(`/api/v1/agents/${agent.id}`, { limits: { maxWaiting: 100 } })).status).toBe(200);
      expect((await as(agent.key).get("/api/v1/agents/me")).status).toBe(200);
    }
    const calls: Promise<{ status: number; body: any }>[] = [];
    for (let i = 0; i < 40; i++) {
      const q = i % 2 ? `${topic} procedure handle` : `handle case ${topic} step`;
      calls.push(as(field.key).get(`/api/v1/knowledge?q=${encodeURIComponent(q)}&limit=20`));
      calls.push(as(specialist.key).post("/api/v1/retrieve", { message: `What do we know about ${topic}?`, scopes: ["memories", "knowledge"] }));
      if (i % 5 === 0) calls.push(flushAccessCounts().then(() => ({ status: 200, body: null })));
    }
    const results = await Promise.all(calls);
    stop = true;
    expect(await folder).toBeGreaterThan(0);
    expect(results.filter((r) => r.status !== 200).map((r) => JSON.stringify(r.body))).toEqual([]);

    const served = results
      .flatMap((r) => (r.body?.entries ?? r.body?.items?.filter((i: any) => i.source === "knowledge") ?? []) as { id: string }[])
      .filter((e) => ids.includes(e.id)).length;
    expect(served).toBeGreaterThan(40);
    await flushAccessCounts();
    const after = await db.query<{ n: number }>(`select coalesce(sum(accessed_count), 0)::int as n from knowledge_entries where id = any ($1::uuid[])`, [ids]);
    expect(after[0]!.n - before[0]!.n).toBe(served);
    expect(await db.query("select 1 from access_events")).toHaveLength(0);
  });

  it("opt-out racing new suggestions, facts and notes leaves nothing about the contact", async () => {
    for (let round = 0; round < 5; round++) {
      const c = await as(manager.key).post("/api/v1/contacts", { name: `Opt Out ${round}`, clientId: client.id, phone: `(863) 555-01${10 + round}` });
      expect(c.status).toBe(201);
      const contactId = c.body.contact.id as string;
      const writes: Promise<{ status: number; body: any }>[] = [];
      for (let i = 0; i < 8; i++) {
        writes.push(as(field.key).post("/api/v1/suggestions", { contactId, key: `key_${i}`, value: `value ${i}`, confidence: 0.8 }));
        if (i === 3) writes.push(as(manager.key).post(`/api/v1/contacts/${contactId}/opt-out`));
        if (i % 3 === 0) writes.push(as(manager.key).put(`/api/v1/contacts/${contactId}/facts/fact_${i}`, { value: `v${i}`, confidence: 0.9 }));
        if (i % 4 === 0) writes.push(as(field.key).post("/api/v1/notes", { content: `note ${i}`, contactId }));
      }
      const results = await Promise.all(writes);
      expect(results.filter((r) => ![200, 201, 409].includes(r.status)).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
      const db = await getDatabase();
      const [left] = await db.query<{ n: number }>(
        `select (select count(*) from memory_suggestions where contact_id = $1)
              + (select count(*) from facts where contact_id = $1)
              + (select count(*) from agent_notes where contact_id = $1) as n`,
        [contactId],
      );
      expect(Number(left!.n)).toBe(0);
      expect((await admin.get(`/api/v1/contacts/${contactId}`)).body.contact.optOut).toBe(true);
    }
  });

  it("an erasure redacting a conversation's turns and a new turn in that conversation, held open at the same time, both complete", async () => {
    // The erasure locks the turns naming the person, then each change re-indexes the turn's
    // conversation; a new turn in that conversation takes the conversation first and then indexes
    // its neighbours, among them the turns the erasure holds. Held open here: the erasure sleeps
    // inside its change of the first such turn while the new turn is written.
    const db = await getDatabase();
    for (const order of ["erasure redacting first", "erasure deleting first", "turn first"] as const) {
      const who = `Wren ${rareWord()}`;
      const c = await as(manager.key).post("/api/v1/contacts", { name: who, clientId: client.id });
      expect(c.status).toBe(201);
      const thread = `held-${rareWord()}`;
      const turn = (content: string, minute: number) => ({
        channel: "chat", direction: "inbound", speaker: "Pat", content, conversationId: thread,
        occurredAt: new Date(Date.UTC(2026, 3, 1, 9, minute)).toISOString(),
      });
      for (const [i, text] of [`${who} called about the boiler`, "the part is on order", `${who} wants a morning visit`].entries()) {
        expect((await as(field.key).post("/api/v1/interactions", turn(text, i))).status).toBe(201);
      }
      // a turn of the contact's own in the same thread: the erasure deletes it
      expect((await as(field.key).post("/api/v1/interactions", { ...turn("linked: see you at nine", 2), contactId: c.body.contact.id })).status).toBe(201);
      const [optOut, written] = await withSlowRows(
        db,
        {
          "erasure redacting first": { name: "slow_erasure_update", table: "interactions", event: "update" as const, when: `new.content like '%[erased]%'`, seconds: 1.5 },
          "erasure deleting first": { name: "slow_erasure_delete", table: "interactions", event: "delete" as const, when: `old.content like 'linked:%'`, seconds: 1.5 },
          "turn first": { name: "slow_turn_insert", table: "interactions", event: "insert" as const, when: `new.content like 'held open%'`, seconds: 1.5 },
        }[order],
        () => {
          const erase = () => as(manager.key).post(`/api/v1/contacts/${c.body.contact.id}/opt-out`);
          const write = () => as(field.key).post("/api/v1/interactions", turn("held open: the technician is on the way", 3));
          return order !== "turn first"
            ? Promise.all([erase(), new Promise((r) => setTimeout(r, 400)).then(write)])
            : Promise.all([new Promise((r) => setTimeout(r, 400)).then(erase), write()]);
        },
      );
      expect([optOut.status, written.status], `${order}: ${JSON.stringify([optOut.body, written.body])}`).toEqual([200, 201]);
      const rows = await db.query<{ content: string }>(
        `select content from interactions where conversation_key = $1 order by occurred_at`, [thread]);
      expect(rows.map((r) => r.content)).toEqual([
        "[erased] called about the boiler", "the part is on order", "[erased] wants a morning visit",
        "held open: the technician is on the way",
      ]);
    }
  });
});

describe.runIf(REAL)(`interaction batches stored in steps, at once on a real server — ${reason}`, () => {
  let client: { id: string };
  let manager: TestAgent;
  let writer: TestAgent;
  beforeAll(async () => {
    client = await createClient();
    manager = await createAgent({ kind: "internal", role: "manager" });
    writer = await createAgent({ kind: "internal", role: "specialist" });
  });
  const turns = (prefix: string, n: number, over: (i: number) => Record<string, unknown> = () => ({})) =>
    Array.from({ length: n }, (_, i) => ({
      channel: "chat",
      direction: i % 2 ? "outbound" : "inbound",
      speaker: "Dana",
      content: `${prefix} turn ${i}`,
      occurredAt: new Date(Date.UTC(2026, 2, 2, 14, i)).toISOString(),
      externalId: `${prefix}-${i}`,
      conversationId: prefix,
      ...over(i),
    }));
  const storedOf = async (prefix: string) => {
    const [row] = await (await getDatabase()).query<{ n: number; hidden: number; distinct: number }>(
      `select count(*)::int as n, count(distinct external_id)::int as distinct,
              count(*) filter (where batch_id = any (mhq.hidden_interaction_batches()))::int as hidden
         from interactions where external_id like $1 || '-%'`,
      [prefix],
    );
    return row!;
  };

  it("two batches and a single write with overlapping externalIds store each turn once and answer the same id for it", async () => {
    for (let round = 0; round < 3; round++) {
      const prefix = `overlap-${round}-${rareWord()}`;
      const items = turns(prefix, 60);
      const [a, b, c] = await Promise.all([
        as(writer.key).post("/api/v1/interactions/batch", { interactions: items.slice(0, 40) }),
        as(writer.key).post("/api/v1/interactions/batch", { interactions: items.slice(20, 60) }),
        as(writer.key).post("/api/v1/interactions", items[30]),
      ]);
      expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([201, 201]);
      expect([200, 201]).toContain(c.status);
      const idOf = new Map<string, string>();
      for (const res of [a, b]) {
        for (const i of res.body.interactions as { id: string; externalId: string }[]) {
          expect(idOf.get(i.externalId) ?? i.id).toBe(i.id);
          idOf.set(i.externalId, i.id);
        }
      }
      expect(idOf.get(`${prefix}-30`)).toBe(c.body.interaction.id);
      expect(await storedOf(prefix)).toEqual({ n: 60, distinct: 60, hidden: 0 });
    }
  });

  it("a batch racing an opt-out of a contact it names is stored whole or refused whole", async () => {
    const outcomes = new Set<number>();
    for (let round = 0; round < 6; round++) {
      const c = await as(manager.key).post("/api/v1/contacts", { name: `Batch Optout ${round}`, clientId: client.id });
      const contactId = c.body.contact.id as string;
      const prefix = `optout-${round}-${rareWord()}`;
      const items = turns(prefix, 40, (i) => (i % 2 ? { contactId } : {}));
      const [batch, optOut] = await Promise.all([
        as(writer.key).post("/api/v1/interactions/batch", { interactions: items }),
        new Promise((r) => setTimeout(r, round * 60)).then(() => as(manager.key).post(`/api/v1/contacts/${contactId}/opt-out`)),
      ]);
      expect(optOut.status).toBe(200);
      expect([201, 409, 422], JSON.stringify(batch.body)).toContain(batch.status);
      outcomes.add(batch.status);
      await runBatchJanitor();
      // stored: the turns not naming the contact, all of them (the erasure took the others);
      // refused: none of them
      expect(await storedOf(prefix)).toEqual(batch.status === 201 ? { n: 20, distinct: 20, hidden: 0 } : { n: 0, distinct: 0, hidden: 0 });
      const [named] = await (await getDatabase()).query<{ n: number }>("select count(*)::int as n from interactions where contact_id = $1", [contactId]);
      expect(named!.n).toBe(0);
    }
    // (which of the two happens is up to the race; the assertions hold for both)
    expect(outcomes.size).toBeGreaterThan(0);
  });
});

describe("access_events: only agents record accesses, only of items they can read", () => {
  it("refuses HQ callers, other agents' memories and unpublished entries, and hides others' pending accesses", async () => {
    const owner = await createAgent({ kind: "internal", role: "specialist" });
    const stranger = await createAgent({ kind: "internal", role: "specialist" });
    const m = await as(owner.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", title: "private lesson", confidence: 0.8 });
    const memoryId = m.body.memory.id as string;
    const db = await getDatabase();
    const asAgent = internalClaims;
    const insert = (claims: Record<string, unknown>, kind: string, id: string) =>
      withClaims(db, claims, (tx) => tx.query("insert into access_events (kind, item_id) values ($1, $2)", [kind, id]));

    // the API: a stranger's read of the memory is a 404 and counts nothing
    expect((await as(stranger.key).get(`/api/v1/memories/${memoryId}`)).status).toBe(404);
    // the database: a stranger, an HQ user, and any caller setting the time or the id are refused
    await expect(insert(asAgent(stranger), "memory", memoryId)).rejects.toMatchObject({ code: "42501" });
    await expect(insert(claimsFor({ type: "hq", userId: null, name: "hq", email: null, role: "admin" }), "memory", memoryId)).rejects.toMatchObject({ code: "42501" });
    await expect(
      withClaims(db, asAgent(owner), (tx) => tx.query("insert into access_events (kind, item_id, at) values ('memory', $1, now() + interval '1 year')", [memoryId])),
    ).rejects.toMatchObject({ code: "42501" });
    const [draft] = await db.query<{ id: string }>(
      `insert into knowledge_entries (title, content, category, tags, created_by, updated_by, status) values ('old', 'x', 'procedure', '{}', 't', 't', 'archived') returning id`,
    );
    await expect(insert(asAgent(owner), "knowledge", draft!.id)).rejects.toMatchObject({ code: "42501" });

    // the owner's own read is recorded; nobody but the owner sees it pending, and no caller deletes it
    await insert(asAgent(owner), "memory", memoryId);
    const seen = (claims: Record<string, unknown>) => withClaims(db, claims, (tx) => tx.query("select item_id from access_events where item_id = $1", [memoryId]));
    expect(await seen(asAgent(owner))).toHaveLength(1);
    expect(await seen(asAgent(stranger))).toHaveLength(0);
    await expect(withClaims(db, asAgent(owner), (tx) => tx.query("delete from access_events"))).rejects.toMatchObject({ code: "42501" });
    await expect(withClaims(db, asAgent(owner), (tx) => tx.query("update access_events set kind = 'knowledge'"))).rejects.toMatchObject({ code: "42501" });
    await flushAccessCounts();
    expect((await admin.get(`/api/v1/memories/${memoryId}`)).body.memory.accessedCount).toBe(1);
  });
});
