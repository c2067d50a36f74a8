import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { foldAccessEvents } from "@/lib/retrieval/usage/access-queries";
import { admin, api, as } from "../helpers/api";
import { transport, withSlowRows } from "../helpers/db";
import { createAgent, createClient, createHqUser, type TestAgent } from "../helpers/fixtures";
import { currentTestDatabase } from "../helpers/setup-env";

// Opt-out erasure ("Delete data when user requests opt-out"): afterwards no table — the
// audit log and the event log included — holds the contact's phone, email or name.

const PERSON = { name: "Dana Whitfield", phone: "(863) 555-0142", email: "Dana.Whitfield@Example.com" };
const NEEDLES = ["Dana Whitfield", "dana.whitfield@example.com", "+18635550142", "8635550142", "(863) 555-0142", "863-555-0142", "863.555.0142", "863 555 0142"];

/** Every (table, column, count) in the public schema whose text/json holds one of the needles. */
async function findTraces(needles: string[]) {
  const db = await getDatabase();
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `select c.table_name, c.column_name
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        and c.data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`,
  );
  expect(columns.length).toBeGreaterThan(20);
  const traces: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const rows = await db.query<{ n: number }>(
        `select count(*)::int as n from "${table_name}" where "${column_name}"::text ilike '%' || $1 || '%'`,
        [needle],
      );
      if (rows[0]!.n > 0) traces.push(`${table_name}.${column_name} holds "${needle}" (${rows[0]!.n})`);
    }
  }
  return traces;
}

let sunrise: { id: string };
let manager: TestAgent;
let specialist: TestAgent;
let fieldSpecialist: TestAgent;
let rival: TestAgent;
let contactId: string;
let neighbourId: string;

beforeAll(async () => {
  sunrise = await createClient();
  const other = await createClient();
  manager = await createAgent({ kind: "internal", role: "manager" });
  specialist = await createAgent({ kind: "internal", role: "specialist" });
  fieldSpecialist = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  rival = await createAgent({ kind: "field", role: "manager", clientId: other.id });

  const c = await as(manager.key).post("/api/v1/contacts", { ...PERSON, clientId: sunrise.id, summary: "Long-time customer, water heater" });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  contactId = c.body.contact.id;
  const n = await as(manager.key).post("/api/v1/contacts", { name: "Sam Neighbour", clientId: sunrise.id });
  neighbourId = n.body.contact.id;
});

describe("opt-out erasure", () => {
  it("is for manager agents and HQ admins only, and another client's contact does not exist for you", async () => {
    expect((await as(specialist.key).post(`/api/v1/contacts/${contactId}/opt-out`)).status).toBe(403);
    expect((await as(fieldSpecialist.key).post(`/api/v1/contacts/${contactId}/opt-out`)).status).toBe(403);
    const curator = await createHqUser("curator");
    expect((await api("POST", `/api/v1/contacts/${contactId}/opt-out`, { cookie: curator.cookie })).status).toBe(403);
    expect((await as(rival.key).post(`/api/v1/contacts/${contactId}/opt-out`)).status).toBe(404);
    expect((await admin.get(`/api/v1/contacts/${contactId}`)).body.contact.optOut).toBe(false);
  });

  it("deletes facts, suggestions, interaction text and embeddings, and leaves no trace of phone, email or name", async () => {
    // everything the agents have learned about Dana, linked to her and not
    const heard = await as(fieldSpecialist.key).post("/api/v1/interactions", {
      contactId,
      channel: "sms",
      direction: "inbound",
      speaker: PERSON.name,
      content: `This is ${PERSON.name}, call me on ${PERSON.phone} or mail ${PERSON.email}. Heater is leaking.`,
    });
    expect(heard.status, JSON.stringify(heard.body)).toBe(201);
    const unlinked = await as(specialist.key).post("/api/v1/interactions", {
      clientId: sunrise.id,
      channel: "call",
      direction: "outbound",
      content: `Left a voicemail for ${PERSON.name} at 863-555-0142 about Tuesday.`,
    });
    expect(unlinked.status).toBe(201);
    // a turn of hers recorded without the contact: her name only as its speaker, which the search
    // reads as part of the turn
    const spoke = await as(specialist.key).post("/api/v1/interactions", {
      clientId: sunrise.id,
      channel: "chat",
      direction: "inbound",
      speaker: PERSON.name,
      content: "The heater is leaking again since Sunday.",
    });
    expect(spoke.status).toBe(201);
    const db = await getDatabase();
    const indexedName = () =>
      db.query<{ lexeme: string }>(
        `select lexeme from interaction_postings where lexeme = 'whitfield'
         union all select lexeme from interaction_term_stats where lexeme = 'whitfield'`,
      );
    expect((await indexedName()).length).toBeGreaterThan(0);
    // the surname a turn mentions is a name the trigger hears for the agent that recorded it (the
    // manager: no memory of its own names her)
    const mentioned = await as(manager.key).post("/api/v1/interactions", {
      clientId: sunrise.id,
      channel: "call",
      direction: "outbound",
      content: `Spoke with ${PERSON.name} about the invoice.`,
    });
    expect(mentioned.status).toBe(201);
    const heardName = () => db.query("select name from agent_people where agent_id = $1 and lower(name) = 'whitfield'", [manager.id]);
    expect(await heardName()).toHaveLength(1);
    expect((await as(manager.key).put(`/api/v1/contacts/${contactId}/facts/water_heater`, { value: "50-gallon gas", confidence: 0.9 })).status).toBe(200);
    const pending = await as(fieldSpecialist.key).post("/api/v1/suggestions", {
      contactId, key: "preferred_time", value: "mornings", confidence: 0.8, interactionId: heard.body.interaction.id,
    });
    expect(pending.status).toBe(201);
    expect((await as(manager.key).put(`/api/v1/contacts/${neighbourId}/facts/referred_by`, { value: `${PERSON.name} (neighbour)`, confidence: 0.9 })).status).toBe(200);
    expect((await as(fieldSpecialist.key).post("/api/v1/events", { kind: "tool.sms_send", outcome: "failure", summary: `SMS to ${PERSON.name} bounced`, contactId })).status).toBe(201);
    expect((await as(fieldSpecialist.key).post("/api/v1/events", { kind: "tool.email_send", summary: "Reminder sent", payload: { to: PERSON.email.toLowerCase() } })).status).toBe(201);
    expect((await as(fieldSpecialist.key).post("/api/v1/notes", { content: `Dana prefers texts to ${PERSON.phone}`, contactId })).status).toBe(201);
    expect((await as(fieldSpecialist.key).post("/api/v1/notes", { content: `Follow up with ${PERSON.email} tomorrow` })).status).toBe(201);
    const memory = await as(specialist.key).post("/api/v1/agents/me/memories", {
      tier: "working", category: "thread", title: "Call back Dana", content: `Promised to call ${PERSON.name} at +1 863 555 0142`, confidence: 0.9,
    });
    expect(memory.status, JSON.stringify(memory.body)).toBe(201);

    expect((await findTraces(NEEDLES)).length).toBeGreaterThan(5);

    const res = await as(manager.key).post(`/api/v1/contacts/${contactId}/opt-out`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.contact).toMatchObject({ id: contactId, optOut: true, name: null, phone: null, email: null, summary: "", stage: "opted_out" });
    expect(res.body.erased).toMatchObject({ facts: 1, suggestions: 1, interactions: 1, events: 1, notes: 1 });
    expect(res.body.erased.redactedRows).toBeGreaterThanOrEqual(5);

    expect(await findTraces(NEEDLES)).toEqual([]);
    // nor the search's index: the turns whose text or speaker was redacted were indexed again
    expect(await indexedName()).toEqual([]);
    // nor the trigger's names: nothing the agent keeps mentions the surname any more
    expect(await heardName()).toEqual([]);

    expect(await db.query("select id from interactions where id = $1", [heard.body.interaction.id])).toHaveLength(0);
    const [kept] = await db.query<{ content: string; embedding: unknown }>("select content, embedding from interactions where id = $1", [unlinked.body.interaction.id]);
    expect(kept!.content).toBe("Left a voicemail for [erased] at [erased] about Tuesday.");
    expect(kept!.embedding).toBeNull(); // no vector still encodes the erased text
    expect(await db.query("select id from facts where contact_id = $1", [contactId])).toHaveLength(0);
    expect(await db.query("select id from memory_suggestions where contact_id = $1", [contactId])).toHaveLength(0);

    // the erasure itself is on the audit log, with counts and no personal data
    const [entry] = await db.query<{ details: any }>("select details from audit_log where action = 'contact.opt_out' and target_id = $1", [contactId]);
    expect(entry!.details.erased).toMatchObject({ facts: 1, interactions: 1 });
  });

  it("stays erased: lookups miss, nothing new is stored about the contact, and a second opt-out changes nothing", async () => {
    expect((await as(manager.key).get("/api/v1/contacts/lookup?phone=8635550142")).status).toBe(404);
    const s = await as(fieldSpecialist.key).post("/api/v1/suggestions", { contactId, key: "preferred_time", value: "mornings", confidence: 0.8 });
    expect(s.status).toBe(409);
    expect((await as(manager.key).put(`/api/v1/contacts/${contactId}/facts/preferred_time`, { value: "mornings", confidence: 0.9 })).status).toBe(409);
    expect((await as(fieldSpecialist.key).post("/api/v1/notes", { content: "x", contactId })).status).toBe(409);
    expect((await as(manager.key).patch(`/api/v1/contacts/${contactId}`, { name: "Dana again" })).status).toBe(409);
    const again = await admin.post(`/api/v1/contacts/${contactId}/opt-out`);
    expect(again.status).toBe(200);
    expect(again.body.erased).toEqual({ alreadyOptedOut: true });
    // the opted-out contact is hidden from the list unless asked for
    const list = await admin.get(`/api/v1/contacts?clientId=${sunrise.id}`);
    expect(list.body.contacts.map((c: any) => c.id)).not.toContain(contactId);
    const all = await admin.get(`/api/v1/contacts?clientId=${sunrise.id}&includeOptedOut=true`);
    expect(all.body.contacts.map((c: any) => c.id)).toContain(contactId);
  });
});

describe("opt-out erasures one after another", () => {
  it("take the people an agent still names elsewhere out of its vocabulary, and never fail on a value that must stay unique", async () => {
    const db = await getDatabase();
    const writer = await createAgent({ kind: "internal", role: "orchestrator", kbAccess: "write" });
    const people = async () =>
      (await db.query<{ name: string }>("select name from agent_people where agent_id = $1 order by lower(name)", [fieldSpecialist.id])).map((p) => p.name);
    const erased: string[] = [];
    for (const [i, name] of ["Priya Castellanos", "Tomasz Wieczorek"].entries()) {
      const c = await as(manager.key).post("/api/v1/contacts", { name, clientId: sunrise.id });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      // the contact speaks, another contact's turn mentions them, one of the agent's memories names them
      const own = await as(fieldSpecialist.key).post("/api/v1/interactions", { contactId: c.body.contact.id, channel: "chat", direction: "inbound", speaker: name, content: "The boiler is leaking again." });
      expect(own.status, JSON.stringify(own.body)).toBe(201);
      const other = await as(fieldSpecialist.key).post("/api/v1/interactions", { contactId: neighbourId, channel: "chat", direction: "inbound", speaker: "Sam Neighbour", content: `My neighbour ${name} has the same boiler problem (${i}).` });
      expect(other.status, JSON.stringify(other.body)).toBe(201);
      const memory = await as(fieldSpecialist.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: `${name} prefers email`, content: `${name} wants every update by email`, confidence: 0.9 });
      expect(memory.status, JSON.stringify(memory.body)).toBe(201);
      // two published entries whose titles read alike once the names are redacted
      const entry = await as(writer.key).post("/api/v1/knowledge", { title: `Boiler notes for ${name}`, content: "Bleed the radiators first.", category: "procedure" });
      expect(entry.status, JSON.stringify(entry.body)).toBe(201);
      expect(await people()).toContain(name);

      const out = await as(manager.key).post(`/api/v1/contacts/${c.body.contact.id}/opt-out`);
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      erased.push(name);
      const left = await people();
      for (const n of erased) expect(left).not.toContain(n);
      expect(left.filter((n) => /erased/i.test(n))).toEqual([]);
    }
    expect(await findTraces(erased)).toEqual([]);
    // both titles stay published, each with a marker of its own
    const titles = (await db.query<{ title: string }>("select title from knowledge_entries where title like 'Boiler notes for %' and status = 'published' order by title")).map((t) => t.title);
    expect(titles).toHaveLength(2);
    expect(titles).toContain("Boiler notes for [erased]");
    expect(titles.find((t) => t !== "Boiler notes for [erased]")).toMatch(/^Boiler notes for \[erased [0-9a-f]{8}\]$/);
    // the marker comes from the entry's key, so it reads the same after a dump and restore
    const [marked] = await db.query<{ title: string; marker: string }>(
      `select title, '[erased ' || left(md5(row(id)::text), 8) || ']' as marker from knowledge_entries
        where title like 'Boiler notes for [erased %]' and status = 'published'`,
    );
    expect(marked!.title).toBe(`Boiler notes for ${marked!.marker}`);
  });
});

describe("holding contacts for a review (mhq.hold_contacts)", () => {
  it("holds only contacts the caller may see: another client's contact is not held, nor said to exist", async () => {
    const c = await as(manager.key).post("/api/v1/contacts", { name: "Held Person", clientId: sunrise.id });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const db = await getDatabase();
    const hold = (agent: TestAgent, kind: "internal" | "field", clientId: string | null) =>
      withClaims(db, claimsFor({ type: "agent", agentId: agent.id, name: agent.name, kind, role: "manager", clientId, kbAccess: "read" }), (tx) =>
        tx.query<{ id: string }>("select id from mhq.hold_contacts($1::uuid[], false) as h (id)", [[c.body.contact.id]]),
      );
    expect(await hold(rival, "field", rival.clientId!)).toEqual([]);
    expect(await hold(manager, "internal", null)).toEqual([{ id: c.body.contact.id }]);
  });
});

describe("the erasure's reach", () => {
  /** The text of rows the test wrote, read as the owner (past every policy). */
  const texts = async () => {
    const db = await getDatabase();
    const rows = await db.query<{ t: string }>(
      `select content as t from interactions where content like '%reach test%'
       union all select content from memories where content like '%reach test%'
       union all select title || ' / ' || content from knowledge_entries where content like '%reach test%'
       order by 1`,
    );
    return rows.map((r) => r.t);
  };

  it("is the contact's client and HQ's rows; another client's rows are never touched, and a field manager's stays in its own client", async () => {
    const other = await createClient();
    const otherManager = await createAgent({ kind: "field", role: "manager", clientId: other.id });
    const otherSpecialist = await createAgent({ kind: "field", role: "specialist", clientId: other.id });
    const writer = await createAgent({ kind: "internal", role: "orchestrator", kbAccess: "write" });
    const say = async (agent: TestAgent, content: string, clientId?: string) => {
      const r = await as(agent.key).post("/api/v1/interactions", { channel: "chat", direction: "inbound", content, ...(clientId ? { clientId } : {}) });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    const remember = async (agent: TestAgent, content: string) => {
      const r = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: content.slice(0, 60), content, confidence: 0.9 });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };

    // a field manager names a contact of its own client after a phrase HQ and another client use
    const phrase = "Boiler Warranty";
    const planted = await as(otherManager.key).post("/api/v1/contacts", { name: phrase, clientId: other.id });
    expect(planted.status, JSON.stringify(planted.body)).toBe(201);
    await say(otherSpecialist, `reach test 1: the ${phrase} card is in the drawer`);
    await say(fieldSpecialist, `reach test 2: sunrise keeps the ${phrase} papers`);
    await remember(specialist, `reach test 3: HQ files every ${phrase} claim by hand`);
    const entry = await as(writer.key).post("/api/v1/knowledge", { title: `${phrase} claims`, content: `reach test 4: how a ${phrase} claim is filed`, category: "procedure" });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);

    const out = await as(otherManager.key).post(`/api/v1/contacts/${planted.body.contact.id}/opt-out`);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(await texts()).toEqual([
      "Boiler Warranty claims / reach test 4: how a Boiler Warranty claim is filed",
      "reach test 1: the [erased] card is in the drawer",
      "reach test 2: sunrise keeps the Boiler Warranty papers",
      "reach test 3: HQ files every Boiler Warranty claim by hand",
    ]);
    const [kept] = await (await getDatabase()).query<{ version: number }>("select version from knowledge_entries where id = $1", [entry.body.entry.id]);
    expect(kept!.version).toBe(entry.body.entry.version);

    // an internal manager erasing a contact of Sunrise reaches Sunrise's rows and HQ's, not the other client's
    const person = "Maren Holtby";
    const c = await as(manager.key).post("/api/v1/contacts", { name: person, clientId: sunrise.id });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    await say(otherSpecialist, `reach test 5: ${person} of the other client called`);
    await say(fieldSpecialist, `reach test 6: ${person} wants a quote`);
    await remember(specialist, `reach test 7: ${person} pays late`);
    const erased = await as(manager.key).post(`/api/v1/contacts/${c.body.contact.id}/opt-out`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect((await texts()).filter((t) => /reach test [567]/.test(t))).toEqual([
      "reach test 5: Maren Holtby of the other client called",
      "reach test 6: [erased] wants a quote",
      "reach test 7: [erased] pays late",
    ]);
  });
});

describe("what a field manager's opt-out leaves for HQ", () => {
  /** The text of rows the test wrote, read as the owner (past every policy). */
  const texts = async (marker: string) => {
    const rows = await (await getDatabase()).query<{ t: string }>(
      `select content as t from interactions where content like '%' || $1 || '%'
       union all select content from memories where content like '%' || $1 || '%'
       union all select content from knowledge_entries where content like '%' || $1 || '%'
       order by 1`,
      [marker],
    );
    return rows.map((r) => r.t);
  };

  it("is kept for HQ only; HQ opting the contact out again erases HQ's rows, or keeps them, and the kept identifiers go", async () => {
    const fieldManager = await createAgent({ kind: "field", role: "manager", clientId: sunrise.id });
    const writer = await createAgent({ kind: "internal", role: "orchestrator", kbAccess: "write" });
    const curator = await createHqUser("curator");
    const say = async (content: string) =>
      expect((await as(fieldSpecialist.key).post("/api/v1/interactions", { channel: "chat", direction: "inbound", content })).status).toBe(201);

    for (const decision of ["erase", "keep"] as const) {
      const marker = `hq finish ${decision}`;
      const person = decision === "erase" ? "Tamsin Okafor" : "Ilse Varga";
      const c = await as(fieldManager.key).post("/api/v1/contacts", { name: person, phone: decision === "erase" ? "(863) 555-0177" : "(863) 555-0178" });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      const id = c.body.contact.id as string;
      await say(`${marker} 1: ${person} called about the tank`);
      const memory = await as(specialist.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: `${marker} 2`, content: `${marker} 2: ${person} is a referral partner`, confidence: 0.9 });
      expect(memory.status, JSON.stringify(memory.body)).toBe(201);
      const entry = await as(writer.key).post("/api/v1/knowledge", { title: `Referrals ${marker}`, content: `${marker} 3: ask ${person} before quoting`, category: "procedure" });
      expect(entry.status, JSON.stringify(entry.body)).toBe(201);

      // the field manager's erasure: its client's rows, and no word of what HQ's rows hold
      const out = await as(fieldManager.key).post(`/api/v1/contacts/${id}/opt-out`);
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      expect(Object.keys(out.body.erased).filter((k) => /hq/i.test(k))).toEqual([]);
      expect(out.body.contact.hqErasure).toBeNull();
      expect(await texts(marker)).toEqual([
        `${marker} 1: [erased] called about the tank`,
        `${marker} 2: ${person} is a referral partner`,
        `${marker} 3: ask ${person} before quoting`,
      ]);
      expect((await as(fieldManager.key).get(`/api/v1/contacts?hqErasure=pending`)).body.total).toBe(0);
      expect((await as(fieldManager.key).delete(`/api/v1/contacts/${id}/hq-erasure`)).status).toBe(403);
      expect((await as(fieldManager.key).post(`/api/v1/contacts/${id}/opt-out`)).body.erased).toEqual({ alreadyOptedOut: true });
      // an HQ user below admin does not see it either
      expect((await api("GET", `/api/v1/contacts/${id}`, { cookie: curator.cookie })).body.contact.hqErasure).toBeNull();

      // HQ sees what is left, in the contact and in the list of those waiting
      const seen = await admin.get(`/api/v1/contacts/${id}`);
      expect(seen.body.contact).toMatchObject({ name: null, phone: null, optOut: true });
      expect(seen.body.contact.hqErasure).toMatchObject({ name: person, phone: expect.stringMatching(/^\+1863555017[78]$/), email: null });
      expect(seen.body.contact.hqErasure.hqRows).toBeGreaterThanOrEqual(2);
      const pending = await admin.get(`/api/v1/contacts?hqErasure=pending&limit=500`);
      expect(pending.body.contacts.map((x: { id: string }) => x.id)).toContain(id);

      if (decision === "erase") {
        const finished = await as(manager.key).post(`/api/v1/contacts/${id}/opt-out`);
        expect(finished.status, JSON.stringify(finished.body)).toBe(200);
        expect(finished.body.erased).toMatchObject({ finishedForHq: true });
        expect(finished.body.contact.hqErasure).toBeNull();
        expect(await texts(marker)).toEqual([
          `${marker} 1: [erased] called about the tank`,
          `${marker} 2: [erased] is a referral partner`,
          `${marker} 3: ask [erased] before quoting`,
        ]);
        expect((await as(manager.key).post(`/api/v1/contacts/${id}/opt-out`)).body.erased).toEqual({ alreadyOptedOut: true });
      } else {
        const kept = await admin.delete(`/api/v1/contacts/${id}/hq-erasure`);
        expect(kept.status, JSON.stringify(kept.body)).toBe(200);
        expect(kept.body.contact.hqErasure).toBeNull();
        expect(await texts(marker)).toEqual([
          `${marker} 1: [erased] called about the tank`,
          `${marker} 2: ${person} is a referral partner`,
          `${marker} 3: ask ${person} before quoting`,
        ]);
        expect((await admin.delete(`/api/v1/contacts/${id}/hq-erasure`)).status).toBe(404);
      }
      // nothing of the person is kept for HQ any more
      const [left] = await (await getDatabase()).query<{ n: number }>("select count(*)::int as n from contact_hq_erasures where contact_id = $1", [id]);
      expect(left!.n).toBe(0);
      const audit = await admin.get(`/api/v1/audit?action=contact&limit=500`);
      expect(audit.body.entries.filter((e: { targetId: string }) => e.targetId === id).map((e: { action: string }) => e.action)).toEqual(
        [decision === "erase" ? "contact.hq_erasure" : "contact.hq_mentions_kept", "contact.opt_out", "contact.create"],
      );
    }
  });

  it("the database shows the kept identifiers to HQ admins and internal managers only, and lets no caller write them", async () => {
    const fieldManager = await createAgent({ kind: "field", role: "manager", clientId: sunrise.id });
    const c = await as(fieldManager.key).post("/api/v1/contacts", { name: "Oona Pryce" });
    await as(specialist.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: "Oona", content: "Oona Pryce sends us referrals", confidence: 0.9 });
    expect((await as(fieldManager.key).post(`/api/v1/contacts/${c.body.contact.id}/opt-out`)).status).toBe(200);
    const db = await getDatabase();
    const agentClaims = (a: TestAgent, kind: "internal" | "field", role: "manager" | "specialist", clientId: string | null) =>
      claimsFor({ type: "agent", agentId: a.id, name: a.name, kind, role, clientId, kbAccess: "read" });
    const rowsAs = (claims: Record<string, unknown>) =>
      withClaims(db, claims, (tx) => tx.query<{ name: string }>("select name from contact_hq_erasures where contact_id = $1", [c.body.contact.id]));
    const hqAdmin = claimsFor({ type: "hq", userId: null, name: "hq", email: null, role: "admin" });
    expect(await rowsAs(hqAdmin)).toEqual([{ name: "Oona Pryce" }]);
    expect(await rowsAs(agentClaims(manager, "internal", "manager", null))).toEqual([{ name: "Oona Pryce" }]);
    expect(await rowsAs(agentClaims(fieldManager, "field", "manager", sunrise.id))).toEqual([]);
    expect(await rowsAs(agentClaims(specialist, "internal", "specialist", null))).toEqual([]);
    expect(await rowsAs(claimsFor({ type: "hq", userId: null, name: "hq", email: null, role: "curator" }))).toEqual([]);
    for (const sql of [
      "insert into contact_hq_erasures (contact_id, client_id, name, hq_rows) values ($1, $2, 'Someone Else', 1)",
      "update contact_hq_erasures set name = 'Someone Else' where contact_id = $1",
      "delete from contact_hq_erasures where contact_id = $1",
    ]) {
      await expect(withClaims(db, hqAdmin, (tx) => tx.query(sql, sql.startsWith("insert") ? [c.body.contact.id, sunrise.id] : [c.body.contact.id]))).rejects.toMatchObject({ code: "42501" });
    }
    // the field manager cannot drop it through the function either
    await expect(withClaims(db, agentClaims(fieldManager, "field", "manager", sunrise.id), (tx) => tx.query("select mhq.keep_hq_mentions($1)", [c.body.contact.id]))).rejects.toMatchObject({ code: "42501" });
    expect(await rowsAs(hqAdmin)).toEqual([{ name: "Oona Pryce" }]);
  });
});

// Only a real server runs statements at once: the embedded database would pass this by running them in turn.
describe.runIf(transport === "postgres")("opt-out erasures at once (real PostgreSQL)", () => {
  it("all complete: each deletes turns of one agent and redacts turns of another, and none deadlocks with another", async () => {
    const other = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
    const agents = [fieldSpecialist, other];
    const names = ["Ines Albrecht", "Kwame Mensah", "Rosa Ferreira", "Yusuf Demir", "Hana Sato", "Lars Nygaard", "Zara Qureshi", "Piet de Vries"];
    const ids: string[] = [];
    for (const [i, name] of names.entries()) {
      const c = await as(manager.key).post("/api/v1/contacts", { name, clientId: sunrise.id });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      ids.push(c.body.contact.id);
      const own = await as(agents[i % 2]!.key).post("/api/v1/interactions", { contactId: c.body.contact.id, channel: "chat", direction: "inbound", speaker: name, content: "The boiler leaks again." });
      expect(own.status, JSON.stringify(own.body)).toBe(201);
      const mention = await as(agents[(i + 1) % 2]!.key).post("/api/v1/interactions", { contactId: neighbourId, channel: "chat", direction: "inbound", speaker: "Sam Neighbour", content: `${name} next door has the same boiler.` });
      expect(mention.status, JSON.stringify(mention.body)).toBe(201);
    }
    const outs = await Promise.all(ids.map((id) => as(manager.key).post(`/api/v1/contacts/${id}/opt-out`)));
    expect(outs.map((o) => o.status)).toEqual(ids.map(() => 200));
    expect(await findTraces(names)).toEqual([]);
  });

  it("and a reviewer approving one of the contact's suggestions wait for each other instead of deadlocking", async () => {
    const db = await getDatabase();
    const c = await as(manager.key).post("/api/v1/contacts", { name: "Ola Brennan", clientId: sunrise.id });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const marker = `slow ${crypto.randomUUID()}`;
    const s = await as(fieldSpecialist.key).post("/api/v1/suggestions", { contactId: c.body.contact.id, key: "gate_code_hint", value: marker, confidence: 0.8 });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    // a test-only trigger slows the fact the approval writes, before the fact's own checks run
    const slowFact = { name: "aa_test_slow_fact", table: "facts", event: "insert", when: "new.value like 'slow %'", seconds: 0.6 } as const;
    await withSlowRows(db, slowFact, async () => {
      const approval = as(manager.key).post(`/api/v1/suggestions/${s.body.suggestion.id}/review`, { decision: "approve" });
      await new Promise((r) => setTimeout(r, 300));
      const erasure = as(manager.key).post(`/api/v1/contacts/${c.body.contact.id}/opt-out`);
      const [approved, erased] = await Promise.all([approval, erasure]);
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(erased.status, JSON.stringify(erased.body)).toBe(200);
      expect(erased.body.erased).toMatchObject({ facts: 1 });
    });
    expect(await db.query("select id from facts where contact_id = $1", [c.body.contact.id])).toEqual([]);
  });

  it("runs beside the access-counter fold without deadlock: it locks the memories it redacts in id order, as the fold does", async () => {
    const db = await getDatabase();
    const name = "Jane Roebuck";
    const c = await as(manager.key).post("/api/v1/contacts", { name, clientId: sunrise.id });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    // two memories naming her, stored so that the table's physical order is the reverse of id order,
    // each with an access waiting to be counted
    const tail = crypto.randomUUID().slice(8);
    const [high, low] = [`ffffffff${tail}`, `00000000${tail}`];
    for (const id of [high, low]) {
      await db.query(
        "insert into memories (id, agent_id, tier, category, title, content, confidence) values ($1, $2, 'core', 'client', $3, $4, 0.9)",
        [id, specialist.id, `Note ${id.slice(0, 8)}`, `${name} prefers the morning slot`],
      );
      await db.query("insert into access_events (kind, item_id) values ('memory', $1)", [id]);
    }
    // a test-only trigger slows each memory update of the erasing session, so the fold starts while
    // the erasure holds the first memory it changed
    const slowErasure = {
      name: "zz_test_slow_erasure", table: "memories", event: "update", when: "current_setting('mhq_test.slow_erasure', true) = 'on'", seconds: 0.6,
    } as const;
    await withSlowRows(db, slowErasure, async () => {
      const erasing = currentTestDatabase().connect!(1);
      const claims = claimsFor({ type: "agent", agentId: manager.id, name: manager.name, kind: "internal", role: "manager", clientId: null, kbAccess: "read" });
      const erasure = withClaims(erasing, claims, async (tx) => {
        await tx.query("select set_config('mhq_test.slow_erasure', 'on', true)");
        return tx.query("select mhq.erase_contact($1) as counts", [c.body.contact.id]);
      });
      await new Promise((r) => setTimeout(r, 300));
      const fold = db.transaction((tx) => foldAccessEvents(tx, { limit: 1000 }));
      const [erased, folded] = await Promise.allSettled([erasure, fold]);
      expect(erased.status, String((erased as PromiseRejectedResult).reason)).toBe("fulfilled");
      expect(folded.status, String((folded as PromiseRejectedResult).reason)).toBe("fulfilled");
      await erasing.close();
    });
    const rows = await db.query<{ content: string; accessed_count: number }>("select content, accessed_count from memories where id = any ($1::uuid[])", [[high, low]]);
    expect(rows.map((r) => [r.content, r.accessed_count])).toEqual([
      ["[erased] prefers the morning slot", 1],
      ["[erased] prefers the morning slot", 1],
    ]);
  });
});
