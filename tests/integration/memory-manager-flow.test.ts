import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, type TestAgent, type TestHqUser } from "../helpers/fixtures";

// The flow per inbound message and the memory manager's rules, through the HTTP API.

let sunrise: { id: string };
let manager: TestAgent;
let orchestrator: TestAgent;
let extractor: TestAgent; // the memory extractor: a specialist
let curator: TestHqUser;

const db = () => getDatabase();

async function newContact(over: Record<string, unknown> = {}) {
  const res = await as(manager.key).post("/api/v1/contacts", { name: "Test Person", clientId: sunrise.id, ...over });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.contact.id as string;
}

async function propose(contactId: string, key: string, value: string, confidence: number, extra: Record<string, unknown> = {}) {
  return as(extractor.key).post("/api/v1/suggestions", { contactId, key, value, confidence, ...extra });
}

beforeAll(async () => {
  sunrise = await createClient("Sunrise Plumbing Test");
  manager = await createAgent({ kind: "internal", role: "manager" });
  orchestrator = await createAgent({ kind: "field", role: "orchestrator", clientId: sunrise.id });
  extractor = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  curator = await createHqUser("curator");
  for (const [key, label, value, category] of [
    ["pricing.starter", "Starter plan price", "$997", "pricing"],
    ["guarantee.30-day", "30-day guarantee", "30-day money-back guarantee", "guarantee"],
    ["escalation.phone", "Escalation number", "(863) 337-3705", "escalation"],
    ["booking.discovery", "Discovery call booking link", "link.aiserviceco.com/discovery", "booking"],
  ]) {
    expect((await admin.put(`/api/v1/locked-constants/${key}`, { label, value, category })).status).toBeLessThan(300);
  }
});

describe("the per-inbound flow of the memory manager", () => {
  it("interaction → suggestions → manager pass → facts, read back by phone in one call", async () => {
    const contactId = await newContact({ name: "Dana Whitfield", phone: "+1 (863) 555-0142", email: "Dana.Whitfield@Example.com" });
    await admin.put(`/api/v1/clients/${sunrise.id}/fact-keys`, { keys: ["water_heater", "preferred_time", "service_address"] });

    // 1. orchestrator: get_memory(phone), however the number is typed
    for (const phone of ["8635550142", "(863) 555-0142", "863.555.0142", "+18635550142", "1-863-555-0142"]) {
      const found = await as(orchestrator.key).get(`/api/v1/contacts/lookup?phone=${encodeURIComponent(phone)}`);
      expect(found.status, phone).toBe(200);
      expect(found.body.contact.id).toBe(contactId);
    }
    const byEmail = await as(orchestrator.key).get("/api/v1/contacts/lookup?email=DANA.whitfield@example.COM");
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toMatchObject({ contact: { id: contactId, phone: "+18635550142", email: "dana.whitfield@example.com" }, facts: [] });
    expect((await as(orchestrator.key).get("/api/v1/contacts/lookup?phone=8635550000")).status).toBe(404);
    expect((await as(orchestrator.key).get("/api/v1/contacts/lookup")).status).toBe(422);

    // 2. the responder logs the inbound
    const interaction = await as(extractor.key).post("/api/v1/interactions", {
      contactId,
      channel: "sms",
      direction: "inbound",
      speaker: "Dana",
      content: "Hi, it's Dana at 14 Elm St. Our 50-gallon gas water heater is leaking. Mornings work best for a visit.",
    });
    expect(interaction.status, JSON.stringify(interaction.body)).toBe(201);
    const interactionId = interaction.body.interaction.id;

    // 3. the extractor turns the transcript into suggestions
    const heater = await propose(contactId, "water_heater", "50-gallon gas, leaking", 0.95, { interactionId });
    const time = await propose(contactId, "preferred_time", "mornings", 0.8, { interactionId });
    const address = await propose(contactId, "service_address", "14 Elm St", 0.6, { interactionId });
    const mood = await propose(contactId, "mood", "friendly", 0.97, { interactionId });
    for (const r of [heater, time, address, mood]) expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(heater.body.validation.outcome).toBe("approve");
    expect(time.body.validation.outcome).toBe("review");
    // below 0.7: pending, the rules' verdict already "refuse", with that reason
    expect(address.body.suggestion).toMatchObject({ status: "pending" });
    expect(address.body.validation).toMatchObject({ outcome: "refuse", reasons: [expect.stringMatching(/below the minimum of 0\.7/)] });
    expect(mood.body.validation.flags.map((f: any) => f.code)).toContain("not_allowlisted");

    // the review queue shows each beside its source
    const queue = await admin.get("/api/v1/suggestions?status=pending");
    const heaterView = queue.body.suggestions.find((s: any) => s.id === heater.body.suggestion.id);
    expect(heaterView).toMatchObject({
      contact: { id: contactId, name: "Dana Whitfield" },
      proposedByName: extractor.name,
      currentFact: null,
      interaction: { id: interactionId, channel: "sms", excerpt: expect.stringContaining("water heater is leaking") },
    });

    // 4. the memory manager's pass
    const run = await as(manager.key).post("/api/v1/review/run", {});
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const outcomeOf = (id: string) => run.body.items.find((i: any) => i.id === id)?.outcome;
    expect(outcomeOf(heater.body.suggestion.id)).toBe("approved");
    expect(outcomeOf(time.body.suggestion.id)).toBe("left"); // 0.8 < 0.9: a person decides
    expect(outcomeOf(mood.body.suggestion.id)).toBe("left"); // not business-relevant for this client
    expect(outcomeOf(address.body.suggestion.id)).toBe("rejected"); // below 0.7

    // a person approves the 0.8 one
    const approved = await api("POST", `/api/v1/suggestions/${time.body.suggestion.id}/review`, { cookie: curator.cookie, body: { decision: "approve" } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.suggestion).toMatchObject({ status: "approved", reviewedByType: "hq_user" });

    // the orchestrator's next lookup carries the facts
    const after = await as(orchestrator.key).get("/api/v1/contacts/lookup?phone=863-555-0142");
    const facts = Object.fromEntries(after.body.facts.map((f: any) => [f.key, [f.value, f.confidence]]));
    expect(facts).toEqual({ water_heater: ["50-gallon gas, leaking", 0.95], preferred_time: ["mornings", 0.8] });
    const [src] = await (await db()).query<{ source: string }>(
      "select source_suggestion_id as source from facts where contact_id = $1 and key = 'water_heater'",
      [contactId],
    );
    expect(src!.source).toBe(heater.body.suggestion.id);

    // and every decision is on the audit log
    const audit = await admin.get("/api/v1/audit?action=suggestion&limit=500");
    const actions = audit.body.entries.filter((e: any) => [heater, time, address].some((s) => s.body.suggestion.id === e.targetId)).map((e: any) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["suggestion.auto_approve", "suggestion.approve", "suggestion.auto_reject"]));
  });

  it("stores the same pending proposal once", async () => {
    const contactId = await newContact();
    const first = await propose(contactId, "preferred_time", "Mornings", 0.8);
    const again = await propose(contactId, "preferred_time", " mornings ", 0.85);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ deduplicated: true, suggestion: { id: first.body.suggestion.id } });
    const rows = await (await db()).query("select id from memory_suggestions where contact_id = $1", [contactId]);
    expect(rows).toHaveLength(1);
  });

  it("refuses a suggestion citing an interaction with somebody else", async () => {
    const a = await newContact({ phone: "863-555-0101" });
    const b = await newContact({ phone: "863-555-0102" });
    const i = await as(extractor.key).post("/api/v1/interactions", { contactId: a, channel: "sms", direction: "inbound", content: "hello" });
    const res = await propose(b, "preferred_time", "evenings", 0.8, { interactionId: i.body.interaction.id });
    expect(res.status).toBe(422);
  });

  it("answers 409 for a duplicate phone within a client, and asks internal callers to choose between clients", async () => {
    await newContact({ phone: "863-555-0300" });
    const dup = await as(manager.key).post("/api/v1/contacts", { name: "Dup", phone: "+1 863 555 0300", clientId: sunrise.id });
    expect(dup.status).toBe(409);
    const elsewhere = await createClient();
    await newContact({ phone: "863-555-0300", clientId: elsewhere.id });
    const ambiguous = await as(manager.key).get("/api/v1/contacts/lookup?phone=8635550300");
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.error.details.candidates).toHaveLength(2);
    const chosen = await as(manager.key).get(`/api/v1/contacts/lookup?phone=8635550300&clientId=${elsewhere.id}`);
    expect(chosen.status).toBe(200);
    expect(chosen.body.contact.clientId).toBe(elsewhere.id);
    // the field orchestrator sees only its own client's
    expect((await as(orchestrator.key).get("/api/v1/contacts/lookup?phone=8635550300")).body.contact.clientId).toBe(sunrise.id);
  });

  it("changes a contact's profile field by field, and never leaves it without a name, phone or email", async () => {
    const id = await newContact({ name: "Rosa Diaz", phone: "863-555-0311" });
    const changed = await admin.patch(`/api/v1/contacts/${id}`, { name: null, email: "Rosa.Diaz@Example.test", stage: "booked", sentiment: "positive" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.contact).toMatchObject({ name: null, phone: "+18635550311", email: "rosa.diaz@example.test", stage: "booked", sentiment: "positive" });
    const nothingLeft = await admin.patch(`/api/v1/contacts/${id}`, { phone: null, email: null });
    expect(nothingLeft.status).toBe(422);
    expect(nothingLeft.body.error.message).toBe("body: a contact keeps at least one of name, phone and email");
    expect((await admin.get(`/api/v1/contacts/${id}`)).body.contact).toMatchObject({ phone: "+18635550311", email: "rosa.diaz@example.test" });
    // swapping one for another in the same call is fine
    expect((await admin.patch(`/api/v1/contacts/${id}`, { phone: null, name: "Rosa D." })).status).toBe(200);
    // a card number or an SSN is no name, and the refusal names the field that held it; a name that is
    // also a word of faith stays storable
    const card = await admin.patch(`/api/v1/contacts/${id}`, { name: "4111 1111 1111 1111" });
    expect(card.status).toBe(422);
    expect(card.body.error.code).toBe("pii_refused");
    expect(card.body.error.message).toMatch(/^The name contains a payment card number/);
    const ssnSummary = await admin.patch(`/api/v1/contacts/${id}`, { summary: "SSN 123-45-6789 on file" });
    expect(ssnSummary.body.error.message).toMatch(/^The summary contains/);
    expect((await as(manager.key).post("/api/v1/contacts", { name: "Priya SSN 123-45-6789", clientId: sunrise.id })).status).toBe(422);
    expect((await admin.patch(`/api/v1/contacts/${id}`, { name: "Christian Faith" })).status).toBe(200);
    // a fact's key is refused for what is wrong with it: its characters, or its length
    const badKey = await admin.put(`/api/v1/contacts/${id}/facts/${encodeURIComponent("Gate Code!")}`, { value: "1234", confidence: 0.9 });
    expect(badKey.status).toBe(422);
    expect(badKey.body.error.message).toBe("key: use lowercase letters, digits, dots, dashes and underscores");
    const longKey = await admin.put(`/api/v1/contacts/${id}/facts/${"k".repeat(101)}`, { value: "x", confidence: 0.9 });
    expect(longKey.status).toBe(422);
    expect(longKey.body.error.message).toMatch(/^key: .*100/);
    // and a curator may not change contacts at all
    expect((await api("PATCH", `/api/v1/contacts/${id}`, { cookie: curator.cookie, body: { name: "Someone" } })).status).toBe(403);
  });
});

describe("refusals, each with its code", () => {
  const ssn = "219-45-6781";

  it("refuses PII at once with 422 pii_refused, stores nothing, and audits the refusal without the PII", async () => {
    const contactId = await newContact();
    const cases: [string, string][] = [
      ["notes", `Customer gave SSN ${ssn} for the credit check`],
      ["payment", "Card 4111 1111 1111 1111 exp 09/29"],
      ["medical_condition", "none"],
      ["notes", "She was diagnosed with diabetes last year"],
      ["notes", "Attends the Baptist church on Sundays"],
      ["notes", "Registered Republican, votes for lower taxes"],
    ];
    for (const [key, value] of cases) {
      const res = await propose(contactId, key, value, 0.95);
      expect(res.status, `${key}: ${value}`).toBe(422);
      expect(res.body.error.code).toBe("pii_refused");
      expect(JSON.stringify(res.body)).not.toContain("4111");
    }
    const stored = await (await db()).query("select id from memory_suggestions where contact_id = $1", [contactId]);
    expect(stored).toHaveLength(0);
    const audits = await (await db()).query<{ details: any; action: string }>(
      "select action, details from audit_log where action = 'suggestion.refused' and target_id = $1",
      [contactId],
    );
    expect(audits).toHaveLength(cases.length);
    const text = JSON.stringify(audits);
    for (const secret of [ssn, "219456781", "4111", "diabetes", "Baptist", "Republican", "medical_condition"]) expect(text).not.toContain(secret);
    expect(audits.map((a) => a.details.findings[0].kind)).toEqual(expect.arrayContaining(["ssn", "payment_card", "health", "religion", "politics"]));
  });

  it("refuses locked constants with 422 locked_constant, by key and by contradicting value", async () => {
    const contactId = await newContact();
    for (const [key, value] of [
      ["escalation_number", "(555) 010-0000"],
      ["pricing.starter", "$500"],
      ["booking_link", "calendly.com/someone"],
      ["notes", "Told her the Starter plan is $500 this month"],
      ["notes", "Promised a 60-day money-back guarantee"],
      ["notes", "Asked her to book via calendly.com/rep-jane"],
    ]) {
      // proposed: pending, the rules' verdict "refuse"; approved: refused, and it stays pending
      const res = await propose(contactId, key!, value!, 0.95);
      expect(res.status, `${key}: ${value}`).toBe(201);
      expect(res.body.suggestion.status).toBe("pending");
      expect(res.body.validation.outcome).toBe("refuse");
      expect(res.body.validation.flags.map((f: any) => f.code)).toContain("locked_constant");
      const approve = await as(manager.key).post(`/api/v1/suggestions/${res.body.suggestion.id}/review`, { decision: "approve" });
      expect(approve.status, `${key}: ${value}`).toBe(422);
      expect(approve.body.error.code).toBe("locked_constant");
      expect((await admin.get(`/api/v1/suggestions?contactId=${contactId}&status=pending`)).body.suggestions.map((s: any) => s.id)).toContain(res.body.suggestion.id);
    }
    // the manager pass rejects them all
    const run = await as(manager.key).post("/api/v1/review/run", {});
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect((await admin.get(`/api/v1/suggestions?contactId=${contactId}&status=pending`)).body.suggestions).toEqual([]);
    // restating a constant, or a phone fact, is not a contradiction
    expect((await propose(contactId, "notes", "Booked the discovery call at link.aiserviceco.com/discovery", 0.8)).status).toBe(201);
    expect((await propose(contactId, "mobile_phone", "(863) 555-0177", 0.8)).status).toBe(201);
    // a direct write is held to the same rule
    const put = await as(manager.key).put(`/api/v1/contacts/${contactId}/facts/escalation_phone`, { value: "555-010-0000", confidence: 1 });
    expect(put.status).toBe(422);
    expect(put.body.error.code).toBe("locked_constant");
  });

  it("holds direct fact writes to PII and confidence rules too", async () => {
    const contactId = await newContact();
    const pii = await as(manager.key).put(`/api/v1/contacts/${contactId}/facts/notes`, { value: `SSN ${ssn}`, confidence: 0.9 });
    expect(pii.status).toBe(422);
    expect(pii.body.error.code).toBe("pii_refused");
    const low = await as(manager.key).put(`/api/v1/contacts/${contactId}/facts/budget`, { value: "$5k", confidence: 0.6 });
    expect(low.status).toBe(422);
    expect(low.body.error.code).toBe("validation_failed");
    expect(low.body.error.message).toMatch(/0\.6 is below the minimum of 0\.7/);
    expect((await as(manager.key).get(`/api/v1/contacts/${contactId}`)).body.facts).toEqual([]);
  });

  it("refuses to approve a suggestion whose edited value carries PII, leaving it pending", async () => {
    const contactId = await newContact();
    const s = await propose(contactId, "billing_note", "pays by card", 0.8);
    const res = await api("POST", `/api/v1/suggestions/${s.body.suggestion.id}/review`, {
      cookie: curator.cookie,
      body: { decision: "approve", value: "card 5555 5555 5555 4444" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("pii_refused");
    const [row] = await (await db()).query<{ status: string }>("select status from memory_suggestions where id = $1", [s.body.suggestion.id]);
    expect(row!.status).toBe("pending");
    expect((await (await db()).query("select 1 from audit_log where action = 'suggestion.approve_refused' and target_id = $1", [s.body.suggestion.id])).length).toBe(1);
  });
});

describe("conflict resolution", () => {
  it("keeps the higher confidence; the loser stays as superseded with a pointer to the winner", async () => {
    const contactId = await newContact();
    const first = await as(manager.key).put(`/api/v1/contacts/${contactId}/facts/preferred_time`, { value: "mornings", confidence: 0.8 });
    expect(first.status).toBe(200);

    // a higher-confidence suggestion replaces it
    const better = await propose(contactId, "preferred_time", "evenings", 0.92);
    expect(better.body.suggestion.currentFact).toMatchObject({ value: "mornings", confidence: 0.8 });
    expect(better.body.validation.flags.map((f: any) => f.code)).toContain("replaces_fact");
    const approved = await api("POST", `/api/v1/suggestions/${better.body.suggestion.id}/review`, { cookie: curator.cookie, body: { decision: "approve" } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.suggestion.status).toBe("approved");
    const winnerId = approved.body.fact.id;

    // a lower-confidence one loses and is kept as superseded, pointing at the fact that stayed
    const worse = await propose(contactId, "preferred_time", "afternoons", 0.75);
    const lost = await api("POST", `/api/v1/suggestions/${worse.body.suggestion.id}/review`, { cookie: curator.cookie, body: { decision: "approve" } });
    expect(lost.status).toBe(200);
    expect(lost.body.suggestion).toMatchObject({ status: "superseded", factId: winnerId, reason: expect.stringMatching(/higher/) });

    const current = await admin.get(`/api/v1/contacts/${contactId}`);
    expect(current.body.facts).toEqual([expect.objectContaining({ key: "preferred_time", value: "evenings", confidence: 0.92 })]);
    const history = await admin.get(`/api/v1/contacts/${contactId}/history`);
    expect(history.body.facts.map((f: any) => [f.value, f.status, f.supersededBy])).toEqual([
      ["evenings", "active", null],
      ["mornings", "superseded", winnerId],
    ]);

    // a direct write with lower confidence does not overwrite either
    const put = await as(manager.key).put(`/api/v1/contacts/${contactId}/facts/preferred_time`, { value: "noon", confidence: 0.85 });
    expect(put.status).toBe(409);
  });

  it("edit-and-approve stores the edited value and keeps the proposal as it was", async () => {
    const contactId = await newContact();
    const s = await propose(contactId, "service_address", "14 elm st", 0.85);
    const res = await api("POST", `/api/v1/suggestions/${s.body.suggestion.id}/review`, {
      cookie: curator.cookie,
      body: { decision: "approve", value: "14 Elm Street, Lakeland FL" },
    });
    expect(res.status).toBe(200);
    expect(res.body.fact.value).toBe("14 Elm Street, Lakeland FL");
    expect(res.body.suggestion).toMatchObject({ value: "14 elm st", approvedValue: "14 Elm Street, Lakeland FL" });
    // the listing says what was stored too, after a later fact has replaced it
    const later = await propose(contactId, "service_address", "22 Oak Avenue, Lakeland FL", 0.95);
    expect(later.body.suggestion.approvedValue).toBeNull();
    await api("POST", `/api/v1/suggestions/${later.body.suggestion.id}/review`, { cookie: curator.cookie, body: { decision: "approve" } });
    const listed = await admin.get(`/api/v1/suggestions?status=approved&contactId=${contactId}`);
    expect(listed.body.suggestions.map((x: any) => [x.value, x.approvedValue])).toEqual([
      ["22 Oak Avenue, Lakeland FL", "22 Oak Avenue, Lakeland FL"],
      ["14 elm st", "14 Elm Street, Lakeland FL"],
    ]);
    const again = await api("POST", `/api/v1/suggestions/${s.body.suggestion.id}/review`, { cookie: curator.cookie, body: { decision: "reject", reason: "late" } });
    expect(again.status).toBe(409);
  });

  it("rejects with a reason, and refuses reviews from viewers", async () => {
    const contactId = await newContact();
    const s = await propose(contactId, "favorite_color", "blue", 0.8);
    const viewer = await createHqUser("viewer");
    expect((await api("POST", `/api/v1/suggestions/${s.body.suggestion.id}/review`, { cookie: viewer.cookie, body: { decision: "reject" } })).status).toBe(403);
    const res = await api("POST", `/api/v1/suggestions/${s.body.suggestion.id}/review`, { cookie: curator.cookie, body: { decision: "reject", reason: "Not business-relevant" } });
    expect(res.status).toBe(200);
    expect(res.body.suggestion).toMatchObject({ status: "rejected", reason: "Not business-relevant", reviewedByType: "hq_user" });
    const entry = await (await db()).query<{ details: any }>("select details from audit_log where action = 'suggestion.reject' and target_id = $1", [s.body.suggestion.id]);
    expect(entry[0]!.details).toMatchObject({ key: "favorite_color", reason: "Not business-relevant" });
  });
});

describe("the manager pass", () => {
  it("is idempotent and safe to run concurrently: each suggestion is decided exactly once", async () => {
    // start from an empty queue
    await admin.post("/api/v1/review/run", {});
    const contacts = await Promise.all([0, 1, 2].map((i) => newContact({ phone: `863-555-07${i}0` })));
    const ids: string[] = [];
    for (const c of contacts) {
      for (const [value, confidence] of [["50-gallon gas", 0.91], ["40-gallon electric", 0.96], ["tankless", 0.93]] as const) {
        const r = await propose(c, "water_heater", value, confidence);
        ids.push(r.body.suggestion.id);
      }
    }
    const [a, b] = await Promise.all([
      as(manager.key).post("/api/v1/review/run", {}),
      api("POST", "/api/v1/review/run", { cookie: curator.cookie, body: {} }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const decidedIds = [...a.body.items, ...b.body.items].filter((i: any) => ids.includes(i.id)).map((i: any) => i.id);
    expect(decidedIds.sort()).toEqual([...ids].sort()); // every one decided, none twice

    const rows = await (await db()).query<{ status: string; n: number }>(
      "select status, count(*)::int as n from memory_suggestions where id = any($1::uuid[]) group by status order by status",
      [ids],
    );
    expect(rows.every((r) => r.status === "approved" || r.status === "superseded")).toBe(true);
    // one active fact per contact: the highest confidence, whatever the order of arrival
    for (const c of contacts) {
      const facts = await (await db()).query<{ value: string; status: string }>("select value, status from facts where contact_id = $1 and key = 'water_heater'", [c]);
      expect(facts.filter((f) => f.status === "active").map((f) => f.value)).toEqual(["40-gallon electric"]);
    }
    const audited = await (await db()).query<{ n: number }>(
      "select count(*)::int as n from audit_log where action in ('suggestion.auto_approve', 'suggestion.auto_supersede') and target_id = any($1::text[])",
      [ids],
    );
    expect(audited[0]!.n).toBe(ids.length);

    // a third run has nothing left to decide
    const again = await as(manager.key).post("/api/v1/review/run", {});
    expect(again.body.items.filter((i: any) => ids.includes(i.id))).toEqual([]);
  });

  it("never lets suggestions left for a person starve newer ones out of a bounded pass", async () => {
    await as(manager.key).post("/api/v1/review/run", { limit: 1000 }); // everything now pending has been looked at
    const contactId = await newContact();
    const waiting = await propose(contactId, "pets", "a dog", 0.8); // needs a person
    const ready = await propose(contactId, "water_heater", "tankless", 0.95);
    const first = await as(manager.key).post("/api/v1/review/run", { limit: 1 });
    expect(first.body.items).toEqual([expect.objectContaining({ id: waiting.body.suggestion.id, outcome: "left" })]);
    const second = await as(manager.key).post("/api/v1/review/run", { limit: 1 });
    expect(second.body.items).toEqual([expect.objectContaining({ id: ready.body.suggestion.id, outcome: "approved" })]);
  });

  it("rejects, with the reason, a pending suggestion that a new locked constant now forbids", async () => {
    const contactId = await newContact();
    const s = await propose(contactId, "warranty_terms", "10-year tank warranty", 0.95);
    expect(s.status).toBe(201);
    await admin.put("/api/v1/locked-constants/other.warranty-terms", { label: "Warranty terms", value: "Parts and labour for 1 year", category: "other" });
    const run = await as(manager.key).post("/api/v1/review/run", {});
    const item = run.body.items.find((i: any) => i.id === s.body.suggestion.id);
    expect(item).toMatchObject({ outcome: "rejected", reason: expect.stringMatching(/locked constant "Warranty terms"/) });
    await admin.delete("/api/v1/locked-constants/other.warranty-terms");
  });

  it("bulk-approves a filtered set, reporting each result", async () => {
    const contactId = await newContact();
    const one = await propose(contactId, "preferred_time", "mornings", 0.8);
    const two = await propose(contactId, "water_heater", "tankless", 0.8);
    const res = await api("POST", "/api/v1/suggestions/bulk-review", {
      cookie: curator.cookie,
      body: { ids: [one.body.suggestion.id, two.body.suggestion.id, one.body.suggestion.id], decision: "approve" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ succeeded: 2, failed: 1 });
    expect(res.body.results[2].error.code).toBe("conflict");
    expect((await admin.get(`/api/v1/contacts/${contactId}`)).body.facts).toHaveLength(2);
  });
});
