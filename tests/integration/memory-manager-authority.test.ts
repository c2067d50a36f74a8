import { beforeAll, describe, expect, it } from "vitest";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, type TestAgent, type TestHqUser } from "../helpers/fixtures";

// The three access layers, enforced twice: the API answers 403 (or 404 across clients), and the
// database itself refuses the same writes when a transaction runs with the caller's claims.

const agentCaller = (a: TestAgent, kind: "internal" | "field", role: AgentCaller["role"]): AgentCaller => ({
  type: "agent", agentId: a.id, name: a.name, kind, role, clientId: a.clientId, kbAccess: "read",
});
const curatorCaller = (u: TestHqUser): HqCaller => ({ type: "hq", userId: u.id, name: "Cora", email: u.email, role: "curator" });

async function asClaims<T>(claims: Record<string, unknown>, fn: (q: (sql: string, p?: unknown[]) => Promise<any[]>) => Promise<T>) {
  return withClaims(await getDatabase(), claims, (tx) => fn((sql, p) => tx.query(sql, p)));
}

const REFUSED = { message: expect.stringMatching(/row-level security|permission denied/) };

let sunrise: { id: string };
let other: { id: string };
let manager: TestAgent; // internal manager: the memory manager
let orchestrator: TestAgent;
let specialist: TestAgent;
let isolated: TestAgent;
let fieldManager: TestAgent;
let fieldSpecialist: TestAgent;
let rivalField: TestAgent;
let curator: TestHqUser;
let viewer: TestHqUser;
let contactId: string;
let otherContactId: string;

beforeAll(async () => {
  sunrise = await createClient();
  other = await createClient();
  manager = await createAgent({ kind: "internal", role: "manager" });
  orchestrator = await createAgent({ kind: "internal", role: "orchestrator" });
  specialist = await createAgent({ kind: "internal", role: "specialist" });
  isolated = await createAgent({ kind: "internal", role: "isolated" });
  fieldManager = await createAgent({ kind: "field", role: "manager", clientId: sunrise.id });
  fieldSpecialist = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  rivalField = await createAgent({ kind: "field", role: "orchestrator", clientId: other.id });
  curator = await createHqUser("curator");
  viewer = await createHqUser("viewer");

  const c = await as(manager.key).post("/api/v1/contacts", { name: "Dana Whitfield", phone: "(863) 555-0142", clientId: sunrise.id });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  contactId = c.body.contact.id;
  const o = await as(manager.key).post("/api/v1/contacts", { name: "Omar Reyes", phone: "863-555-0199", clientId: other.id });
  otherContactId = o.body.contact.id;
});

describe("who writes contacts and facts (API)", () => {
  it("lets manager agents and HQ admins create contacts; refuses everyone else with 403", async () => {
    expect((await admin.post("/api/v1/contacts", { name: "Admin Made", clientId: sunrise.id })).status).toBe(201);
    expect((await as(fieldManager.key).post("/api/v1/contacts", { name: "Field Made" })).status).toBe(201);
    for (const key of [orchestrator.key, specialist.key, fieldSpecialist.key]) {
      const res = await as(key).post("/api/v1/contacts", { name: "Nope", clientId: sunrise.id });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect((await api("POST", "/api/v1/contacts", { cookie: curator.cookie, body: { name: "Nope" } })).status).toBe(403);
    expect((await api("POST", "/api/v1/contacts", { cookie: viewer.cookie, body: { name: "Nope" } })).status).toBe(403);
  });

  it("refuses a specialist's, orchestrator's or curator's direct fact write with 403; a manager's succeeds", async () => {
    const body = { value: "mornings", confidence: 0.9 };
    for (const key of [specialist.key, orchestrator.key, fieldSpecialist.key]) {
      const res = await as(key).put(`/api/v1/contacts/${contactId}/facts/preferred_time`, body);
      expect(res.status).toBe(403);
    }
    expect((await api("PUT", `/api/v1/contacts/${contactId}/facts/preferred_time`, { cookie: curator.cookie, body })).status).toBe(403);
    const ok = await as(manager.key).put(`/api/v1/contacts/${contactId}/facts/preferred_time`, body);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.fact).toMatchObject({ key: "preferred_time", value: "mornings", confidence: 0.9, status: "active", writtenByName: manager.name });
  });

  it("lets orchestrators and specialists read contacts and propose suggestions, but not review them", async () => {
    for (const key of [orchestrator.key, specialist.key, fieldSpecialist.key]) {
      const read = await as(key).get(`/api/v1/contacts/${contactId}`);
      expect(read.status).toBe(200);
      expect(read.body.facts.map((f: any) => f.key)).toContain("preferred_time");
    }
    const proposed = await as(specialist.key).post("/api/v1/suggestions", { contactId, key: "water_heater", value: "50-gallon gas, 2014", confidence: 0.85 });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
    expect(proposed.body.suggestion).toMatchObject({ status: "pending", proposedByName: specialist.name, proposedByType: "agent" });
    const review = await as(specialist.key).post(`/api/v1/suggestions/${proposed.body.suggestion.id}/review`, { decision: "approve" });
    expect(review.status).toBe(403);
    expect((await as(orchestrator.key).post("/api/v1/review/run", {})).status).toBe(403);
    expect((await api("POST", "/api/v1/review/run", { cookie: viewer.cookie, body: {} })).status).toBe(403);
  });

  it("gives isolated agents nothing at all", async () => {
    expect((await as(isolated.key).get(`/api/v1/contacts/${contactId}`)).status).toBe(403);
    expect((await as(isolated.key).get("/api/v1/contacts")).status).toBe(403);
    expect((await as(isolated.key).get("/api/v1/contacts/lookup?phone=8635550142")).status).toBe(403);
    expect((await as(isolated.key).post("/api/v1/suggestions", { contactId, key: "x", value: "y", confidence: 0.9 })).status).toBe(403);
    expect((await as(isolated.key).post("/api/v1/notes", { content: "hi" })).status).toBe(403);
    expect((await as(isolated.key).post("/api/v1/events", { kind: "tool.x", summary: "hi" })).status).toBe(403);
  });

  it("keeps field agents to their own client's contacts: another client's answers 404", async () => {
    expect((await as(rivalField.key).get(`/api/v1/contacts/${contactId}`)).status).toBe(404);
    expect((await as(rivalField.key).get("/api/v1/contacts/lookup?phone=(863) 555-0142")).status).toBe(404);
    const list = await as(rivalField.key).get("/api/v1/contacts");
    expect(list.body.contacts.map((c: any) => c.id)).toEqual([otherContactId]);
    const proposal = await as(rivalField.key).post("/api/v1/suggestions", { contactId, key: "x", value: "y", confidence: 0.9 });
    expect(proposal.status).toBe(404);
    // a field manager creates contacts for its own client only
    const foreign = await as(fieldManager.key).post("/api/v1/contacts", { name: "Elsewhere", clientId: other.id });
    expect(foreign.status).toBe(404);
    expect((await as(fieldManager.key).get(`/api/v1/contacts/${otherContactId}`)).status).toBe(404);
    const own = await as(fieldManager.key).get(`/api/v1/contacts/${contactId}`);
    expect(own.status).toBe(200);
  });

  it("lets only HQ admins edit a client's allow-list of fact keys", async () => {
    expect((await as(manager.key).put(`/api/v1/clients/${sunrise.id}/fact-keys`, { keys: ["x"] })).status).toBe(403);
    expect((await api("PUT", `/api/v1/clients/${sunrise.id}/fact-keys`, { cookie: curator.cookie, body: { keys: ["x"] } })).status).toBe(403);
    const set = await admin.put(`/api/v1/clients/${sunrise.id}/fact-keys`, { keys: ["water_heater", "preferred_time", "water_heater"] });
    expect(set.status).toBe(200);
    expect(set.body.keys).toEqual(["preferred_time", "water_heater"]);
    expect((await as(fieldSpecialist.key).get(`/api/v1/clients/${sunrise.id}/fact-keys`)).body.keys).toEqual(["preferred_time", "water_heater"]);
    expect((await as(rivalField.key).get(`/api/v1/clients/${sunrise.id}/fact-keys`)).status).toBe(404);
  });
});

describe("who writes contacts and facts (the database itself)", () => {
  it("refuses a specialist's fact insert and contact writes, whatever the application does", async () => {
    const claims = claimsFor(agentCaller(specialist, "internal", "specialist"));
    await expect(
      asClaims(claims, (q) => q("insert into facts (contact_id, key, value, confidence) values ($1, 'budget', '$5000', 0.9)", [contactId])),
    ).rejects.toMatchObject(REFUSED);
    await expect(asClaims(claims, (q) => q("insert into contacts (name) values ('Forged')"))).rejects.toMatchObject(REFUSED);
    // updates the policy hides change nothing
    expect(await asClaims(claims, (q) => q("update contacts set summary = 'x' where id = $1 returning id", [contactId]))).toHaveLength(0);
    expect(await asClaims(claims, (q) => q("update facts set status = 'superseded', superseded_at = now() returning id"))).toHaveLength(0);
    // no caller may delete facts or flip opt_out directly: erasure goes through mhq.erase_contact
    await expect(asClaims(claimsFor(agentCaller(manager, "internal", "manager")), (q) => q("delete from facts"))).rejects.toMatchObject(REFUSED);
    await expect(
      asClaims(claimsFor(agentCaller(manager, "internal", "manager")), (q) => q("update contacts set opt_out = true where id = $1", [contactId])),
    ).rejects.toMatchObject(REFUSED);
    // and nothing changed
    const facts = await (await getDatabase()).query("select key from facts where contact_id = $1 and key = 'budget'", [contactId]);
    expect(facts).toHaveLength(0);
  });

  it("lets a manager agent's claims write a fact, stamped with the manager's identity, never below 0.7", async () => {
    const claims = claimsFor(agentCaller(manager, "internal", "manager"));
    const [row] = await asClaims(claims, (q) =>
      q("insert into facts (contact_id, key, value, confidence) values ($1, 'gate_code_needed', 'yes', 0.8) returning client_id, written_by_id, written_by_name", [contactId]),
    );
    expect(row).toEqual({ client_id: sunrise.id, written_by_id: manager.id, written_by_name: manager.name });
    await expect(
      asClaims(claims, (q) => q("insert into facts (contact_id, key, value, confidence) values ($1, 'maybe', 'x', 0.5)", [contactId])),
    ).rejects.toMatchObject({ message: expect.stringMatching(/check constraint/) });
    // a forged author is refused
    await expect(
      asClaims(claims, (q) =>
        q("insert into facts (contact_id, key, value, confidence, written_by_name, written_by_id) values ($1, 'k', 'v', 0.9, 'Someone', $2)", [contactId, specialist.id]),
      ),
    ).rejects.toMatchObject(REFUSED);
  });

  it("hides contacts, facts and suggestions from isolated agents and from other clients' field agents", async () => {
    const isolatedClaims = claimsFor(agentCaller(isolated, "internal", "isolated"));
    for (const table of ["contacts", "facts", "memory_suggestions", "agent_notes", "event_log", "playbook_updates"]) {
      expect(await asClaims(isolatedClaims, (q) => q(`select id from ${table}`))).toHaveLength(0);
    }
    const rival = claimsFor(agentCaller(rivalField, "field", "orchestrator"));
    expect(await asClaims(rival, (q) => q("select id from contacts where id = $1", [contactId]))).toHaveLength(0);
    expect(await asClaims(rival, (q) => q("select id from facts where contact_id = $1", [contactId]))).toHaveLength(0);
    expect(await asClaims(rival, (q) => q("select id from memory_suggestions where contact_id = $1", [contactId]))).toHaveLength(0);
    // a field manager cannot file a contact under another client, nor under HQ
    const fieldMgr = claimsFor(agentCaller(fieldManager, "field", "manager"));
    await expect(asClaims(fieldMgr, (q) => q("insert into contacts (client_id, name) values ($1, 'X')", [other.id]))).rejects.toMatchObject(REFUSED);
    await expect(asClaims(fieldMgr, (q) => q("insert into contacts (client_id, name) values (null, 'X')"))).rejects.toMatchObject(REFUSED);
  });

  it("refuses a suggestion in someone else's name, and lets curators write facts only by approving a suggestion", async () => {
    const claims = claimsFor(agentCaller(specialist, "internal", "specialist"));
    await expect(
      asClaims(claims, (q) =>
        q("insert into memory_suggestions (contact_id, key, value, confidence, proposed_by_id) values ($1, 'k', 'v', 0.9, $2)", [contactId, manager.id]),
      ),
    ).rejects.toMatchObject(REFUSED);
    await expect(
      asClaims(claims, (q) => q("insert into memory_suggestions (contact_id, key, value, confidence, status) values ($1, 'k', 'v', 0.9, 'approved')", [contactId])),
    ).rejects.toMatchObject(REFUSED);

    const cur = claimsFor(curatorCaller(curator));
    await expect(
      asClaims(cur, (q) => q("insert into facts (contact_id, key, value, confidence) values ($1, 'budget', '$5000', 0.9)", [contactId])),
    ).rejects.toMatchObject(REFUSED);
    const [s] = await asClaims(claims, (q) =>
      q("insert into memory_suggestions (contact_id, key, value, confidence) values ($1, 'budget', '$5000', 0.9) returning id", [contactId]),
    );
    const [fact] = await asClaims(cur, (q) =>
      q("insert into facts (contact_id, key, value, confidence, source_suggestion_id) values ($1, 'budget', '$5000', 0.9, $2) returning id", [contactId, s.id]),
    );
    expect(fact.id).toBeTruthy();
    // the suggestion's key must match the fact's
    await expect(
      asClaims(cur, (q) =>
        q("insert into facts (contact_id, key, value, confidence, source_suggestion_id) values ($1, 'other_key', 'x', 0.9, $2)", [contactId, s.id]),
      ),
    ).rejects.toMatchObject(REFUSED);
  });
});
