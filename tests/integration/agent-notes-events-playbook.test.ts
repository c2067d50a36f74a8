import { beforeAll, describe, expect, it } from "vitest";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";

// The memory manager's working tables: agent notes (24 h), the event log, playbook updates.

let sunrise: { id: string };
let other: { id: string };
let manager: TestAgent;
let specialist: TestAgent;
let colleague: TestAgent;
let fieldSpecialist: TestAgent;
let rival: TestAgent;

const callerOf = (a: TestAgent, kind: "internal" | "field", role: AgentCaller["role"]): AgentCaller => ({
  type: "agent", agentId: a.id, name: a.name, kind, role, clientId: a.clientId, kbAccess: "read",
});

beforeAll(async () => {
  sunrise = await createClient();
  other = await createClient();
  manager = await createAgent({ kind: "internal", role: "manager" });
  specialist = await createAgent({ kind: "internal", role: "specialist" });
  colleague = await createAgent({ kind: "internal", role: "specialist" });
  fieldSpecialist = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  rival = await createAgent({ kind: "field", role: "orchestrator", clientId: other.id });
});

describe("agent notes", () => {
  it("expire after 24 h: an expired note is never returned, even before the cleanup deletes it", async () => {
    const live = await as(specialist.key).post("/api/v1/notes", { content: "Customer prefers texts" });
    expect(live.status, JSON.stringify(live.body)).toBe(201);
    const ttlMs = new Date(live.body.note.expiresAt).getTime() - new Date(live.body.note.createdAt).getTime();
    expect(ttlMs).toBe(24 * 3600 * 1000);

    // a note written 25 hours ago (system insert: callers cannot back-date)
    const db = await getDatabase();
    const [old] = await db.query<{ id: string }>(
      `insert into agent_notes (agent_id, content, created_at, expires_at)
       values ($1, 'stale note', now() - interval '25 hours', now() - interval '1 hour') returning id`,
      [specialist.id],
    );
    const listed = await as(specialist.key).get("/api/v1/notes");
    expect(listed.body.notes.map((n: any) => n.content)).toEqual(["Customer prefers texts"]);
    expect((await admin.get("/api/v1/notes")).body.notes.map((n: any) => n.id)).not.toContain(old!.id);
    // the database hides it from the caller's role too
    const seen = await withClaims(db, claimsFor(callerOf(specialist, "internal", "specialist")), (tx) =>
      tx.query("select id from agent_notes where id = $1", [old!.id]),
    );
    expect(seen).toHaveLength(0);
    // and a caller cannot write a note that outlives 24 h
    await expect(
      withClaims(db, claimsFor(callerOf(specialist, "internal", "specialist")), (tx) =>
        tx.query("insert into agent_notes (agent_id, content, expires_at) values ($1, 'forever', now() + interval '30 days')", [specialist.id]),
      ),
    ).rejects.toMatchObject({ message: expect.stringMatching(/check constraint/) });

    // the cleanup job deletes expired notes only
    expect((await as(manager.key).post("/api/v1/jobs/purge-notes", {})).status).toBe(403);
    const purge = await admin.post("/api/v1/jobs/purge-notes", {});
    expect(purge.status).toBe(200);
    expect(purge.body.deleted).toBe(1);
    const remaining = await db.query<{ id: string }>("select id from agent_notes where agent_id = $1", [specialist.id]);
    expect(remaining.map((r) => r.id)).toEqual([live.body.note.id]);
    // replaying it as of tomorrow removes today's note as well
    const tomorrow = new Date(Date.now() + 25 * 3600 * 1000).toISOString();
    expect((await admin.post("/api/v1/jobs/purge-notes", { now: tomorrow })).body.deleted).toBeGreaterThanOrEqual(1);
  });

  it("are read by their author and by managers, not by fellow specialists; field agents stay in their client", async () => {
    const note = await as(specialist.key).post("/api/v1/notes", { content: "Working on the Elm St job" });
    expect((await as(colleague.key).get("/api/v1/notes")).body.notes.map((n: any) => n.id)).not.toContain(note.body.note.id);
    expect((await as(manager.key).get("/api/v1/notes")).body.notes.map((n: any) => n.id)).toContain(note.body.note.id);
    const field = await as(fieldSpecialist.key).post("/api/v1/notes", { content: "Sunrise note" });
    expect(field.body.note.clientId).toBe(sunrise.id);
    expect((await as(fieldSpecialist.key).post("/api/v1/notes", { content: "x", clientId: other.id })).status).toBe(404);
    expect((await as(rival.key).get("/api/v1/notes")).body.notes.map((n: any) => n.id)).not.toContain(field.body.note.id);
  });

  it("never hold SSNs or card numbers, not even for a day", async () => {
    const res = await as(specialist.key).post("/api/v1/notes", { content: "card 4111-1111-1111-1111" });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("pii_refused");
  });
});

describe("the event log", () => {
  it("records tool successes and failures from any agent, filterable for the daily review", async () => {
    const fail = await as(fieldSpecialist.key).post("/api/v1/events", {
      kind: "tool.sms_send", outcome: "failure", summary: "Twilio 30007: carrier filtered", payload: { attempt: 2 },
    });
    expect(fail.status, JSON.stringify(fail.body)).toBe(201);
    expect(fail.body.event).toMatchObject({ kind: "tool.sms_send", outcome: "failure", clientId: sunrise.id, payload: { attempt: 2 } });
    await as(specialist.key).post("/api/v1/events", { kind: "tool.calendar_book", outcome: "success", summary: "Booked" });

    const failures = await as(manager.key).get("/api/v1/events?outcome=failure&kind=tool");
    expect(failures.body.events.map((e: any) => e.id)).toEqual([fail.body.event.id]);
    // specialists read back their own events only; other clients' field agents see none of these
    expect((await as(colleague.key).get("/api/v1/events")).body.events).toEqual([]);
    expect((await as(rival.key).get("/api/v1/events")).body.events).toEqual([]);
    expect((await admin.get("/api/v1/events")).body.events.length).toBe(2);
    expect((await admin.post("/api/v1/events", { kind: "x", summary: "hq cannot log agent events" })).status).toBe(403);
  });
});

describe("a note or event that names a contact", () => {
  it("is filed under the contact's client: another client's contact is refused by the API and by the database", async () => {
    const c = await admin.post("/api/v1/contacts", { name: "Filed Person", clientId: sunrise.id });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const contactId = c.body.contact.id;
    // the API: the contact does not exist for the other client's agent
    expect((await as(rival.key).post("/api/v1/notes", { content: "planted", contactId })).status).toBe(404);
    expect((await as(rival.key).post("/api/v1/events", { kind: "tool.sms_send", summary: "planted", contactId })).status).toBe(404);
    // the database: a row of the rival's own client naming Sunrise's contact is refused
    const db = await getDatabase();
    const asRival = (sql: string) => withClaims(db, claimsFor(callerOf(rival, "field", "orchestrator")), (tx) => tx.query(sql, [rival.id, other.id, contactId]));
    await expect(asRival("insert into agent_notes (agent_id, client_id, contact_id, content) values ($1, $2, $3, 'planted')")).rejects.toMatchObject({
      message: expect.stringMatching(/row-level security/),
    });
    await expect(asRival("insert into event_log (agent_id, client_id, contact_id, kind, summary) values ($1, $2, $3, 'tool.sms_send', 'planted')")).rejects.toMatchObject({
      message: expect.stringMatching(/row-level security/),
    });
    // the same writes filed under the contact's own client by its own agent are stored
    const asField = (sql: string) =>
      withClaims(db, claimsFor(callerOf(fieldSpecialist, "field", "specialist")), (tx) => tx.query(sql, [fieldSpecialist.id, sunrise.id, contactId]));
    await asField("insert into agent_notes (agent_id, client_id, contact_id, content) values ($1, $2, $3, 'kept')");
    await asField("insert into event_log (agent_id, client_id, contact_id, kind, summary) values ($1, $2, $3, 'tool.sms_send', 'kept')");
    expect(await db.query("select content from agent_notes where contact_id = $1", [contactId])).toEqual([{ content: "kept" }]);
  });
});

describe("playbook updates", () => {
  it("take improvement ideas, refuse ones that would change a locked constant, and are reviewed by HQ", async () => {
    await admin.put("/api/v1/locked-constants/pricing.starter", { label: "Starter plan price", value: "$997", category: "pricing" });
    const idea = await as(specialist.key).post("/api/v1/playbook-updates", {
      area: "objection", title: "Price objection reply", content: "Acknowledge, then offer the discovery call before discussing budget.",
    });
    expect(idea.status, JSON.stringify(idea.body)).toBe(201);
    expect(idea.body.update).toMatchObject({ status: "proposed", agentId: specialist.id });

    const discount = await as(specialist.key).post("/api/v1/playbook-updates", {
      area: "objection", title: "Close faster", content: "Offer the Starter plan at $497 when they hesitate.",
    });
    expect(discount.status).toBe(422);
    expect(discount.body.error.code).toBe("locked_constant");

    expect((await as(manager.key).post(`/api/v1/playbook-updates/${idea.body.update.id}/review`, { decision: "accept" })).status).toBe(403);
    const accepted = await admin.post(`/api/v1/playbook-updates/${idea.body.update.id}/review`, { decision: "accept", note: "Good" });
    expect(accepted.status).toBe(200);
    expect(accepted.body.update).toMatchObject({ status: "accepted", reviewNote: "Good" });
    expect((await admin.post(`/api/v1/playbook-updates/${idea.body.update.id}/review`, { decision: "reject" })).status).toBe(409);
    expect((await admin.get("/api/v1/playbook-updates?status=accepted")).body.updates.map((u: any) => u.id)).toEqual([idea.body.update.id]);
  });
});
