import { describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { getDatabase } from "@/lib/db";
import { createAgent, createClient } from "../helpers/fixtures";

describe("locked constants", () => {
  it("are changed by HQ admins only, read by agents, and every change is audited", async () => {
    const put = await admin.put("/api/v1/locked-constants/escalation.phone", {
      label: "Escalation number", value: "(863) 337-3705", category: "escalation",
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ created: true, constant: { key: "escalation.phone", value: "(863) 337-3705" } });
    const update = await admin.put("/api/v1/locked-constants/escalation.phone", {
      label: "Escalation number", value: "(863) 337-0000", category: "escalation",
    });
    expect(update.body.created).toBe(false);

    const agent = await createAgent({ kind: "internal", role: "manager", kbAccess: "write" });
    const read = await as(agent.key).get("/api/v1/locked-constants");
    expect(read.status).toBe(200);
    expect(read.body.constants).toEqual([expect.objectContaining({ key: "escalation.phone", value: "(863) 337-0000" })]);
    const attempt = await as(agent.key).put("/api/v1/locked-constants/escalation.phone", {
      label: "x", value: "(000) 000-0000", category: "escalation",
    });
    expect(attempt.status).toBe(403);
    expect((await as(agent.key).delete("/api/v1/locked-constants/escalation.phone")).status).toBe(403);

    const audit = await admin.get("/api/v1/audit?action=locked_constant");
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual([
      "locked_constant.update",
      "locked_constant.create",
    ]);
    expect(audit.body.entries[0].details).toEqual({ from: "(863) 337-3705", to: "(863) 337-0000" });
    expect(audit.body.entries[0].actorType).toBe("admin_key");
  });

  it("rejects a malformed key as not found and bad categories as 422", async () => {
    expect((await admin.put("/api/v1/locked-constants/Bad Key", { label: "x", value: "y", category: "pricing" })).status).toBe(404);
    expect((await admin.put("/api/v1/locked-constants/ok.key", { label: "x", value: "y", category: "vibes" })).status).toBe(422);
  });
});

describe("missions", () => {
  it("are created by HQ and seen by internal agents and by field agents of their client only", async () => {
    const a = await createClient();
    const b = await createClient();
    const m1 = await admin.post("/api/v1/missions", { title: "Team mission", status: "active" });
    const m2 = await admin.post("/api/v1/missions", { title: "Client A rollout", status: "active", clientId: a.id });
    const m3 = await admin.post("/api/v1/missions", { title: "Client B rollout", status: "planned", clientId: b.id });
    expect([m1.status, m2.status, m3.status]).toEqual([201, 201, 201]);

    const internal = await createAgent({ kind: "internal", role: "orchestrator" });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: a.id });
    const seenInternal = (await as(internal.key).get("/api/v1/missions")).body.missions.map((m: { title: string }) => m.title);
    expect(seenInternal.sort()).toEqual(["Client A rollout", "Client B rollout", "Team mission"]);
    const seenField = (await as(field.key).get("/api/v1/missions")).body.missions.map((m: { title: string }) => m.title);
    expect(seenField).toEqual(["Client A rollout"]);

    expect((await as(internal.key).post("/api/v1/missions", { title: "Agent-made", status: "active" })).status).toBe(403);
    const done = await admin.patch(`/api/v1/missions/${m1.body.mission.id}`, { status: "done" });
    expect(done.body.mission.status).toBe("done");
    expect((await admin.get("/api/v1/missions?status=done")).body.missions).toHaveLength(1);
  });
});

describe("the audit log", () => {
  it("pages with a cursor without skipping entries written in the same transaction", async () => {
    // several entries with the same occurred_at: one transaction, one now()
    const db = await getDatabase();
    await db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) await tx.query("select mhq.audit('page.test', 'test', $1)", [String(i)]);
    });
    const all = (await admin.get("/api/v1/audit?limit=500")).body.entries.map((e: { id: string }) => e.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { entries: { id: string }[]; nextCursor: string | null } } = await admin.get(
        `/api/v1/audit?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      seen.push(...page.body.entries.map((e) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
