import { beforeAll, describe, expect, it } from "vitest";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, type TestAgent, type TestHqUser } from "../helpers/fixtures";

// Escalations feed the knowledge base: the same issue is never escalated twice.

let sunrise: { id: string };
let northwind: { id: string };
let santos: TestAgent;
let nora: TestAgent;
let sam: TestAgent;
let sybil: TestAgent;
let isolated: TestAgent;
let curator: TestHqUser;
let viewer: TestHqUser;

const callerOf = (a: TestAgent, kind: "internal" | "field", role: AgentCaller["role"], kbAccess: "read" | "write" = "read"): AgentCaller => ({
  type: "agent", agentId: a.id, name: a.name, kind, role, clientId: a.clientId, kbAccess,
});

beforeAll(async () => {
  sunrise = await createClient();
  northwind = await createClient();
  santos = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  nora = await createAgent({ kind: "field", role: "specialist", clientId: northwind.id });
  sam = await createAgent({ kind: "internal", role: "specialist", kbAccess: "write" });
  sybil = await createAgent({ kind: "internal", role: "orchestrator" });
  isolated = await createAgent({ kind: "internal", role: "isolated" });
  curator = await createHqUser("curator");
  viewer = await createHqUser("viewer");
  await admin.post("/api/v1/knowledge", {
    title: "Writing a weekly client report", content: "Calls booked, open threads, escalations. Send on Friday.", category: "template",
  });
});

describe("escalations", () => {
  let first: any;

  it("are raised by non-isolated agents with similar knowledge; HQ cannot raise them in an agent's name", async () => {
    const res = await as(santos.key).post("/api/v1/escalations", {
      question: "The booking link in our SMS replies returns a 404 page for customers",
      severity: "high",
      context: "Three customers this morning",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    first = res.body.escalation;
    expect(first).toMatchObject({ status: "open", agentId: santos.id, clientId: sunrise.id, severity: "high", knownFixId: null });
    expect(Array.isArray(res.body.similarKnowledge)).toBe(true);
    expect(res.body.knownFix).toBeUndefined();
    expect((await as(isolated.key).post("/api/v1/escalations", { question: "x", severity: "low" })).status).toBe(403);
    expect((await admin.post("/api/v1/escalations", { question: "x", severity: "low" })).status).toBe(403);
    expect((await as(santos.key).post("/api/v1/escalations", { question: "x", severity: "urgent" })).status).toBe(422);
  });

  it("field agents never see another client's escalations, at the API and in the database", async () => {
    expect((await as(santos.key).get("/api/v1/escalations")).body.escalations.map((e: any) => e.id)).toEqual([first.id]);
    const rival = await as(nora.key).get("/api/v1/escalations");
    expect(rival.status).toBe(200);
    expect(rival.body.escalations).toEqual([]);
    expect(rival.body.counts).toMatchObject({ open: 0, resolved: 0 });
    expect((await as(sybil.key).get("/api/v1/escalations?status=open")).body.escalations.map((e: any) => e.id)).toContain(first.id);
    expect((await api("GET", "/api/v1/escalations", { cookie: viewer.cookie })).body.escalations).toHaveLength(1);

    const db = await getDatabase();
    const seen = await withClaims(db, claimsFor(callerOf(nora, "field", "specialist")), (tx) => tx.query("select id from escalations"));
    expect(seen).toEqual([]);
    // nor can a field agent raise one under another client, or resolve one
    await expect(
      withClaims(db, claimsFor(callerOf(nora, "field", "specialist")), (tx) =>
        tx.query("insert into escalations (agent_id, client_id, question, severity) values ($1, $2, 'x', 'low')", [nora.id, sunrise.id]),
      ),
    ).rejects.toThrow(/row-level security/);
    const updated = await withClaims(db, claimsFor(callerOf(santos, "field", "specialist")), (tx) =>
      tx.query("update escalations set status = 'resolved', resolution = 'x', resolved_at = now() returning id"),
    );
    expect(updated).toEqual([]);
  });

  it("are resolved by curators, admins and internal agents with kbAccess write — nobody else", async () => {
    const body = { resolution: "The old link was retired" };
    expect((await as(santos.key).post(`/api/v1/escalations/${first.id}/resolve`, body)).status).toBe(403);
    expect((await as(sybil.key).post(`/api/v1/escalations/${first.id}/resolve`, body)).status).toBe(403);
    expect((await api("POST", `/api/v1/escalations/${first.id}/resolve`, { cookie: viewer.cookie, body })).status).toBe(403);
    expect((await as(sam.key).post("/api/v1/escalations/00000000-0000-4000-8000-000000000000/resolve", body)).status).toBe(404);
  });

  it("a resolution captures the fix in the knowledge base, linked to the escalation, in one commit", async () => {
    const res = await as(sam.key).post(`/api/v1/escalations/${first.id}/resolve`, {
      resolution: "Agents pasted the retired booking link; the current one lives in the locked constants.",
      knowledge: {
        title: "Booking link returns 404",
        content: "The booking link changed. Never type it from memory: use the booking link from the locked constants, and resend it to the customer.",
        category: "escalation",
        tags: ["booking", "sms"],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.escalation).toMatchObject({ status: "resolved", knowledgeEntryId: res.body.knowledge.id, resolvedByName: sam.name });
    expect(res.body.knowledge).toMatchObject({ title: "Booking link returns 404", category: "escalation" });
    expect((await as(sam.key).post(`/api/v1/escalations/${first.id}/resolve`, { resolution: "again" })).status).toBe(409);
    const audit = await admin.get("/api/v1/audit?action=escalation");
    expect(audit.body.entries.map((e: any) => e.action).sort()).toEqual(["escalation.create", "escalation.resolve"]);
  });

  it("a second, differently worded escalation from another client's agent receives the captured fix first", async () => {
    const res = await as(nora.key).post("/api/v1/escalations", {
      question: "Customers say the link to book an appointment shows page not found (404)",
      severity: "medium",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.knownFix).toMatchObject({ title: "Booking link returns 404" });
    expect(res.body.similarKnowledge[0].id).toBe(res.body.knownFix.id);
    expect(res.body.escalation.knownFixId).toBe(res.body.knownFix.id);
    // still blind to the other client's escalation it came from
    expect((await as(nora.key).get("/api/v1/escalations")).body.escalations.map((e: any) => e.id)).toEqual([res.body.escalation.id]);
    // an unrelated question gets no known fix
    const other = await as(nora.key).post("/api/v1/escalations", { question: "Which template do I use for the weekly client report?", severity: "low" });
    expect(other.body.knownFix).toBeUndefined();
    // the Dashboard's count
    const counts = (await api("GET", "/api/v1/escalations", { cookie: curator.cookie })).body.counts;
    expect(counts).toEqual({ open: 2, resolved: 1, answeredByKnownFix: 1 });
  });

  it("a resolution without a reusable fix writes no knowledge when told so; a curator may resolve", async () => {
    const esc = await as(sybil.key).post("/api/v1/escalations", { question: "Is the CRM down for everyone?", severity: "critical" });
    const res = await api("POST", `/api/v1/escalations/${esc.body.escalation.id}/resolve`, {
      cookie: curator.cookie,
      body: { resolution: "A blip; back up.", knowledge: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.knowledge).toBeUndefined();
    expect(res.body.escalation).toMatchObject({ status: "resolved", knowledgeEntryId: null });
  });

  it("an empty resolution is refused and leaves the escalation open", async () => {
    const esc = await as(santos.key).post("/api/v1/escalations", { question: "The invoice PDF attachments arrive empty", severity: "low" });
    const id = esc.body.escalation.id;
    for (const resolution of ["", "   \n "]) {
      const res = await as(sam.key).post(`/api/v1/escalations/${id}/resolve`, { resolution });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.message).toMatch(/resolution/);
    }
    expect((await as(sam.key).post(`/api/v1/escalations/${id}/resolve`, {})).status).toBe(422);
    const listed = await as(sam.key).get("/api/v1/escalations?status=open");
    expect(listed.body.escalations.map((e: any) => e.id)).toContain(id);
  });

  it("without a knowledge body the fix is published from the question and the resolution, and answers the next one", async () => {
    const esc = await as(santos.key).post("/api/v1/escalations", {
      question: "Voicemail transcripts stopped arriving in the shared inbox",
      severity: "medium",
    });
    const res = await as(sam.key).post(`/api/v1/escalations/${esc.body.escalation.id}/resolve`, {
      resolution: "Re-authorise the telephony integration under Settings → Integrations; the token expired.",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.knowledge).toMatchObject({ title: "Voicemail transcripts stopped arriving in the shared inbox", category: "escalation", tags: ["escalation", "medium"] });
    expect(res.body.knowledge.content).toContain("Re-authorise the telephony integration");
    expect(res.body.escalation.knowledgeEntryId).toBe(res.body.knowledge.id);

    const again = await as(nora.key).post("/api/v1/escalations", { question: "Voicemail transcripts are not arriving in the shared inbox any more", severity: "high" });
    expect(again.body.knownFix, JSON.stringify(again.body)).toMatchObject({ id: res.body.knowledge.id });
    expect(again.body.knownFix.content).toContain("Re-authorise the telephony integration");
  });

  it("a knowledge body whose fix is left empty gets the resolution, and a composed title already in use gets a number", async () => {
    const question = "Calendar invites land in the wrong time zone";
    const first = await as(santos.key).post("/api/v1/escalations", { question, severity: "high" });
    const filled = await as(sam.key).post(`/api/v1/escalations/${first.body.escalation.id}/resolve`, {
      resolution: "Set the account time zone to Europe/Berlin.",
      knowledge: { title: "Invites in the wrong time zone", content: `**Problem:** ${question}\n\n**Fix:** `, category: "escalation" },
    });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect(filled.body.knowledge.content).toBe(`**Problem:** ${question}\n\n**Fix:** Set the account time zone to Europe/Berlin.`);

    const written = await admin.post("/api/v1/knowledge", { title: "Printer offline", content: "Check the cable.", category: "tool-guide" });
    expect(written.status).toBe(201);
    const second = await as(santos.key).post("/api/v1/escalations", { question: "Printer offline", severity: "low" });
    const numbered = await as(sam.key).post(`/api/v1/escalations/${second.body.escalation.id}/resolve`, { resolution: "Restart the print server." });
    expect(numbered.status, JSON.stringify(numbered.body)).toBe(200);
    expect(numbered.body.knowledge.title).toBe("Printer offline (2)");
  });

  it("open ones come most severe first, then longest waiting; rows name the client", async () => {
    const client = await createClient();
    const field = await createAgent({ kind: "field", role: "specialist", clientId: client.id });
    const raise = async (question: string, severity: string) =>
      (await as(field.key).post("/api/v1/escalations", { question, severity })).body.escalation.id as string;
    const oldLow = await raise("Order ref 1 low priority cosmetic typo", "low");
    const oldHigh = await raise("Order ref 2 the gate code changed", "high");
    const critical = await raise("Order ref 3 a customer smells gas", "critical");
    const newHigh = await raise("Order ref 4 the gate code is wrong again", "high");
    const listed = await as(field.key).get("/api/v1/escalations?status=open");
    expect(listed.body.escalations.map((e: any) => e.id)).toEqual([critical, oldHigh, newHigh, oldLow]);
    const db = await getDatabase();
    const [row] = await db.query<{ name: string }>("select name from clients where id = $1", [client.id]);
    expect(listed.body.escalations[0].clientName).toBe(row!.name);
    // HQ sees the client's name too
    const hq = await api("GET", "/api/v1/escalations?status=open&limit=500", { cookie: curator.cookie });
    expect(hq.body.escalations.find((e: any) => e.id === critical).clientName).toBe(row!.name);
  });

  it("linking the existing entry that already answers it makes that entry the known fix", async () => {
    const entry = await admin.post("/api/v1/knowledge", {
      title: "Parking permit renewals",
      content: "Parking permits are renewed at the city portal under Permits → Renew; the old permit stays valid for 14 days.",
      category: "procedure",
    });
    const esc = await as(santos.key).post("/api/v1/escalations", { question: "How does a customer renew their parking permit?", severity: "low" });
    const id = esc.body.escalation.id;
    const both = await as(sam.key).post(`/api/v1/escalations/${id}/resolve`, {
      resolution: "See the permits entry.",
      knowledgeEntryId: entry.body.entry.id,
      knowledge: false,
    });
    expect(both.status).toBe(422);
    const missing = await as(sam.key).post(`/api/v1/escalations/${id}/resolve`, {
      resolution: "See the permits entry.",
      knowledgeEntryId: "00000000-0000-4000-8000-000000000000",
    });
    expect(missing.status).toBe(422);
    const res = await as(sam.key).post(`/api/v1/escalations/${id}/resolve`, { resolution: "Renew at the city portal.", knowledgeEntryId: entry.body.entry.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.escalation.knowledgeEntryId).toBe(entry.body.entry.id);
    expect(res.body.knowledge.id).toBe(entry.body.entry.id);
    const again = await as(nora.key).post("/api/v1/escalations", { question: "A customer asks how to renew a parking permit", severity: "low" });
    expect(again.body.knownFix, JSON.stringify(again.body)).toMatchObject({ id: entry.body.entry.id });
  });
});
