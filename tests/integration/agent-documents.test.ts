import { describe, expect, it } from "vitest";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient } from "../helpers/fixtures";
import { todayIn } from "@/lib/documents/today";

const doc = (agent: string, type: string, query = "") => `/api/v1/agents/${agent}/documents/${type}${query}`;

describe("agent documents (SOUL, WORKING, daily)", () => {
  it("reads a document never written as empty with version 0", async () => {
    const sybil = await createAgent({ kind: "internal", role: "manager" });
    for (const type of ["soul", "working"]) {
      const res = await as(sybil.key).get(doc("me", type));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type, content: "", version: 0, updatedAt: null });
    }
    const daily = await as(sybil.key).get(doc("me", "daily"));
    expect(daily.body).toMatchObject({ type: "daily", date: todayIn("UTC"), content: "", version: 0 });
    expect((await as(sybil.key).get(doc("me", "diary"))).status).toBe(404);
  });

  it("versions every write and reads back what was written", async () => {
    const sam = await createAgent({ kind: "internal", role: "specialist" });
    const first = await as(sam.key).put(doc("me", "soul"), { content: "# SAM — Backend Engineer" });
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(1);
    const second = await as(sam.key).put(doc(sam.id, "soul"), { content: "# SAM v2", expectedVersion: 1 });
    expect(second.status).toBe(200);
    expect(second.body.version).toBe(2);
    const read = await as(sam.key).get(doc("me", "soul"));
    expect(read.body).toMatchObject({ content: "# SAM v2", version: 2, updatedByName: sam.name });
    expect(typeof read.body.updatedAt).toBe("string");
  });

  it("answers 409 on a stale expectedVersion and changes nothing", async () => {
    const sage = await createAgent({ kind: "internal", role: "orchestrator" });
    await as(sage.key).put(doc("me", "working"), { content: "v1", expectedVersion: 0 });
    await as(sage.key).put(doc("me", "working"), { content: "v2", expectedVersion: 1 });

    const stale = await as(sage.key).put(doc("me", "working"), { content: "from an old session", expectedVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    // the current document rides along so a client can show both versions
    expect(stale.body.error.details.current).toMatchObject({ content: "v2", version: 2 });

    const firstAgain = await as(sage.key).put(doc("me", "working"), { content: "I thought it was new", expectedVersion: 0 });
    expect(firstAgain.status).toBe(409);

    const unknownFuture = await as(sage.key).put(doc("me", "soul"), { content: "x", expectedVersion: 3 });
    expect(unknownFuture.status).toBe(409);
    expect(unknownFuture.body.error.details.current).toMatchObject({ content: "", version: 0 });

    const read = await as(sage.key).get(doc("me", "working"));
    expect(read.body).toMatchObject({ content: "v2", version: 2 });
  });

  it("lets exactly one of two concurrent writers with the same expectedVersion win", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    await as(agent.key).put(doc("me", "working"), { content: "base", expectedVersion: 0 });
    const results = await Promise.all(
      ["writer A", "writer B", "writer C"].map((content) => as(agent.key).put(doc("me", "working"), { content, expectedVersion: 1 })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const winner = ["writer A", "writer B", "writer C"][results.findIndex((r) => r.status === 200)];
    const read = await as(agent.key).get(doc("me", "working"));
    expect(read.body).toMatchObject({ content: winner, version: 2 });
  });

  it("lets exactly one of two concurrent first writers (expectedVersion 0) win", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const results = await Promise.all(
      ["first A", "first B"].map((content) => as(agent.key).put(doc("me", "soul"), { content, expectedVersion: 0 })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await as(agent.key).get(doc("me", "soul"))).body.version).toBe(1);
  });

  it("limits the scratchpad to 2000 characters (422 on 2001) but not the SOUL", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const ok = await as(agent.key).put(doc("me", "working"), { content: "x".repeat(2000) });
    expect(ok.status).toBe(200);
    const tooLong = await as(agent.key).put(doc("me", "working"), { content: "x".repeat(2001), expectedVersion: 1 });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.code).toBe("validation_failed");
    expect(tooLong.body.error.details).toMatchObject({ limit: 2000, length: 2001 });
    // characters, not UTF-16 units: 2000 emoji fit
    expect((await as(agent.key).put(doc("me", "working"), { content: "🧠".repeat(2000) })).status).toBe(200);
    expect((await as(agent.key).put(doc("me", "soul"), { content: "s".repeat(5000) })).status).toBe(200);
    expect((await as(agent.key).get(doc("me", "working"))).body.version).toBe(2);
  });

  it("keeps one daily note per date and lists the dates", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    await as(agent.key).put(doc("me", "daily"), { content: "# Feb 1", date: "2026-02-01" });
    await as(agent.key).put(doc("me", "daily"), { content: "# Feb 2", date: "2026-02-02" });
    await as(agent.key).put(doc("me", "daily"), { content: "# today" });
    expect((await as(agent.key).get(doc("me", "daily", "?date=2026-02-01"))).body).toMatchObject({ date: "2026-02-01", content: "# Feb 1", version: 1 });
    expect((await as(agent.key).get(doc("me", "daily"))).body).toMatchObject({ content: "# today" });
    const list = await as(agent.key).get(`/api/v1/agents/me/daily`);
    expect(list.status).toBe(200);
    expect(list.body.notes.map((n: any) => n.date)).toEqual([todayIn("UTC"), "2026-02-02", "2026-02-01"].sort().reverse());
    expect((await as(agent.key).get(doc("me", "daily", "?date=2026-13-01"))).status).toBe(422);
    expect((await as(agent.key).put(doc("me", "soul"), { content: "x", date: "2026-02-01" })).status).toBe(422);
  });

  it("answers 404 when agent A reads or writes agent B's documents", async () => {
    const a = await createAgent({ kind: "internal", role: "manager" });
    const b = await createAgent({ kind: "internal", role: "specialist" });
    await as(b.key).put(doc("me", "soul"), { content: "B's private identity" });

    const read = await as(a.key).get(doc(b.id, "soul"));
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).not.toContain("private identity");
    expect((await as(a.key).put(doc(b.id, "working"), { content: "hijack" })).status).toBe(404);
    expect((await as(b.key).get(doc("me", "working"))).body.version).toBe(0);
  });

  it("lets HQ admins read and write any agent's documents and gives isolated agents nothing", async () => {
    const client = await createClient();
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const isolated = await createAgent({ kind: "internal", role: "isolated" });
    const written = await admin.put(doc(santos.id, "soul"), { content: "# Santos — Sunrise Plumbing's agent" });
    expect(written.status).toBe(200);
    expect((await as(santos.key).get(doc("me", "soul"))).body.content).toContain("Santos");

    expect((await as(isolated.key).get(doc("me", "soul"))).status).toBe(403);
    expect((await as(isolated.key).put(doc("me", "working"), { content: "x" })).status).toBe(403);

    const audit = await admin.get("/api/v1/audit?action=document");
    expect(audit.body.entries.some((e: any) => e.action === "document.write" && e.targetId === santos.id)).toBe(true);
  });

  it("rejects unknown fields and needs authentication", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    expect((await as(agent.key).put(doc("me", "soul"), { content: "x", version: 3 })).status).toBe(422);
    expect((await api("GET", doc(agent.id, "soul"))).status).toBe(401);
  });
});
