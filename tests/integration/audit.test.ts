import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser } from "../helpers/fixtures";

const decision = {
  tier: "learning",
  category: "decision",
  title: "Offer the Tuesday slot first",
  content: "Customers in the evening book Tuesday more often",
  confidence: 0.8,
};

describe("the audit log", () => {
  it("records agents' own memory and document writes and outcomes scored by HQ users, with names resolved", async () => {
    const client = await createClient("Sunrise Plumbing");
    const santos = await createAgent({ name: "Santos", kind: "field", role: "orchestrator", clientId: client.id });
    const curator = await createHqUser("admin");

    const written = await as(santos.key).post("/api/v1/agents/me/memories", decision);
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    const doc = await as(santos.key).put("/api/v1/agents/me/documents/working", { content: "## Current task\nquotes" });
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    const scored = await api("POST", `/api/v1/memories/${written.body.memory.id}/outcome`, {
      cookie: curator.cookie,
      body: { result: "booked", success: true },
    });
    expect(scored.status, JSON.stringify(scored.body)).toBe(201);

    const memoryArea = await admin.get("/api/v1/audit?action=memory,document");
    expect(memoryArea.status).toBe(200);
    const byAction = new Map(memoryArea.body.entries.map((e: any) => [e.action, e]));
    expect(byAction.get("memory.create")).toMatchObject({
      actorType: "agent",
      actorName: "Santos",
      targetType: "memory",
      targetName: "Offer the Tuesday slot first",
      agentName: "Santos",
      clientName: "Sunrise Plumbing",
    });
    expect(byAction.get("document.write")).toMatchObject({ actorType: "agent", targetName: "Santos", details: { type: "working", version: 1 } });
    expect(byAction.get("memory.outcome")).toMatchObject({
      actorType: "hq_user",
      actorId: curator.id,
      targetName: "Offer the Tuesday slot first",
      details: { success: true },
    });
  });

  it("records messages, events and notes agents write, without their text", async () => {
    const client = await createClient();
    const agent = await createAgent({ kind: "field", role: "specialist", clientId: client.id });
    const secret = "call me at the back door, code 4411";
    expect((await as(agent.key).post("/api/v1/interactions", { channel: "sms", direction: "inbound", content: secret })).status).toBe(201);
    expect((await as(agent.key).post("/api/v1/notes", { content: "waiting on a callback" })).status).toBe(201);
    expect((await as(agent.key).post("/api/v1/events", { kind: "tool.call", outcome: "success", summary: "booked" })).status).toBe(201);
    const log = await admin.get(`/api/v1/audit?action=interaction,notes,event&actor=${encodeURIComponent(agent.name)}`);
    expect(log.body.entries.map((e: any) => e.action).sort()).toEqual(["event.create", "interaction.create", "notes.create"]);
    expect(JSON.stringify(log.body)).not.toContain("back door");
  });

  it("filters by actor type, actor name and time range, and exports CSV with the same filters", async () => {
    const c1 = await createClient("Alpha, \"the first\"");
    await createClient("=HYPERLINK(evil)");
    const viewer = await createHqUser("viewer");

    const clients = await admin.get("/api/v1/audit?action=client&actorType=admin_key");
    expect(clients.body.entries.length).toBeGreaterThanOrEqual(2);
    expect(clients.body.entries.every((e: any) => e.actorType === "admin_key")).toBe(true);
    expect((await admin.get("/api/v1/audit?action=client&actorType=agent")).body.entries).toEqual([]);
    expect((await admin.get("/api/v1/audit?actor=nobody-by-this-name")).body.entries).toEqual([]);
    // a % in the name filter is a literal percent sign, not a wildcard
    expect((await admin.get("/api/v1/audit?actor=%25")).body.entries).toEqual([]);

    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    expect((await admin.get(`/api/v1/audit?from=${encodeURIComponent(future)}`)).body.entries).toEqual([]);
    expect((await admin.get(`/api/v1/audit?to=${encodeURIComponent(past)}`)).body.entries).toEqual([]);
    const inRange = await admin.get(`/api/v1/audit?action=client&from=${encodeURIComponent(past)}&to=${encodeURIComponent(future)}`);
    expect(inRange.body.entries.find((e: any) => e.targetId === c1.id)).toMatchObject({ targetName: c1.name, action: "client.create" });
    expect((await admin.get("/api/v1/audit?actorType=robot")).status).toBe(422);
    expect((await admin.get("/api/v1/audit?from=yesterday")).status).toBe(422);

    const csv = await api("GET", "/api/v1/audit/export?action=client", { cookie: viewer.cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = String(csv.body).trim().split("\r\n");
    expect(lines[0]).toBe("occurred_at,actor_type,actor_name,actor_id,action,action_label,target_type,target_id,target_name,agent_name,client_name,details");
    const listed = await admin.get("/api/v1/audit?action=client");
    expect(lines).toHaveLength(1 + listed.body.entries.length);
    expect(csv.body).toContain('"Alpha, ""the first"""');
    expect(csv.body).toContain("Created client");
    // a cell a spreadsheet would run as a formula is prefixed with a quote
    expect(csv.body).toContain("'=HYPERLINK(evil)");
  });

  it("is refused to agents, for the list and the export alike", async () => {
    const agent = await createAgent({ kind: "internal", role: "manager" });
    expect((await as(agent.key).get("/api/v1/audit")).status).toBe(403);
    expect((await as(agent.key).get("/api/v1/audit/export")).status).toBe(403);
  });

  it("files a field agent's entries under its own client, whatever client the call names (the database holds it)", async () => {
    const own = await createClient();
    const other = await createClient();
    const field = await createAgent({ kind: "field", role: "manager", clientId: own.id });
    const db = await getDatabase();
    const claims = claimsFor({ type: "agent", agentId: field.id, name: field.name, kind: "field", role: "manager", clientId: own.id, kbAccess: "read" });
    const marker = `audit.probe.${Date.now().toString(36)}`;
    await withClaims(db, claims, (tx) => tx.query("select mhq.audit($1, 'probe', null, '{}'::jsonb, $2)", [marker, other.id]));
    const rows = await db.query<{ client_id: string; actor_id: string }>("select client_id, actor_id from audit_log where action = $1", [marker]);
    expect(rows).toEqual([{ client_id: own.id, actor_id: field.id }]);
  });
});
