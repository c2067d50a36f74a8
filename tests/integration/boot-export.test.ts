import { strFromU8, unzipSync } from "fflate";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient } from "../helpers/fixtures";
import { TEST_ADMIN_KEY } from "../helpers/setup-env";
import { GET as exportRoute } from "@/app/api/v1/agents/[agentId]/export/route";
import { getDatabase } from "@/lib/db";
import { todayIn } from "@/lib/documents/today";

const write = (key: string, body: Record<string, unknown>) => as(key).post("/api/v1/agents/me/memories", body);

describe("boot context", () => {
  it("loads soul, scratchpad, today's note, core, pending, recent working items, constants and team highlights", async () => {
    const sybil = await createAgent({ kind: "internal", role: "manager" });
    const saber = await createAgent({ kind: "internal", role: "specialist" });
    await admin.put("/api/v1/locked-constants/pricing.starter", { label: "Starter plan price", value: "$997", category: "pricing" });
    await as(sybil.key).put("/api/v1/agents/me/documents/soul", { content: "# SYBIL — Research lead" });
    await as(sybil.key).put("/api/v1/agents/me/documents/working", { content: "## Current task\nShared memory rollout" });
    await as(sybil.key).put("/api/v1/agents/me/documents/daily", { content: "# Today\n- reviewed schema" });
    await as(sybil.key).put("/api/v1/agents/me/documents/daily", { content: "# Long ago", date: "2026-01-01" });

    await write(sybil.key, { tier: "core", category: "principle", title: "Quality over speed", confidence: 0.95 });
    const commitment = await write(sybil.key, { tier: "working", category: "commitment", title: "Deliver the schema review to Bridget", confidence: 0.9 });
    const project = await write(sybil.key, { tier: "working", category: "project", title: "Shared knowledge rollout", confidence: 0.9 });
    const resolved = await write(sybil.key, { tier: "working", category: "thread", title: "Answered Sage about indexes", confidence: 0.9 });
    await as(sybil.key).patch(`/api/v1/memories/${resolved.body.memory.id}`, { status: "resolved" });
    const stale = await write(sybil.key, { tier: "working", category: "project", title: "Old project nobody touched", confidence: 0.9 });
    await (await getDatabase()).query("alter table memories disable trigger memories_updated_at");
    await (await getDatabase()).query("update memories set updated_at = now() - interval '10 days' where id = $1", [stale.body.memory.id]);
    await (await getDatabase()).query("alter table memories enable trigger memories_updated_at");
    await write(sybil.key, insightOf("A private lesson"));
    await write(saber.key, { ...insightOf("Funding-rate signal works on 8h windows"), scope: "team" });

    const res = await as(sybil.key).get("/api/v1/agents/me/boot");
    expect(res.status).toBe(200);
    const boot = res.body;
    expect(boot.agent).toMatchObject({ id: sybil.id, kind: "internal" });
    expect(boot.soul).toMatchObject({ content: "# SYBIL — Research lead", version: 1 });
    expect(boot.working.content).toContain("Shared memory rollout");
    expect(boot.daily).toMatchObject({ date: todayIn("UTC"), content: "# Today\n- reviewed schema" });
    expect(boot.core.map((m: any) => m.title)).toEqual(["Quality over speed"]);
    expect(boot.pending.map((m: any) => m.id)).toEqual([commitment.body.memory.id]);
    expect(boot.recent.map((m: any) => m.id)).toEqual([project.body.memory.id]);
    expect(boot.lockedConstants.map((c: any) => c.key)).toContain("pricing.starter");
    expect(boot.teamHighlights.map((m: any) => m.title)).toEqual(["Funding-rate signal works on 8h windows"]);
  });

  it("gives field agents no team highlights and keeps other agents' boot private", async () => {
    const client = await createClient();
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const sam = await createAgent({ kind: "internal", role: "specialist" });
    await write(sam.key, { ...insightOf("Team-only knowledge"), scope: "team" });
    await write(santos.key, { tier: "working", category: "commitment", title: "Call Dana back Tuesday", confidence: 0.9 });

    const boot = await as(santos.key).get("/api/v1/agents/me/boot");
    expect(boot.status).toBe(200);
    expect(boot.body).not.toHaveProperty("teamHighlights");
    expect(JSON.stringify(boot.body)).not.toContain("Team-only knowledge");
    expect(boot.body.pending.map((m: any) => m.title)).toEqual(["Call Dana back Tuesday"]);
    expect(boot.body.soul).toMatchObject({ content: "", version: 0 });

    expect((await as(sam.key).get(`/api/v1/agents/${santos.id}/boot`)).status).toBe(404);
    expect((await admin.get(`/api/v1/agents/${santos.id}/boot`)).body).not.toHaveProperty("teamHighlights");
    const internalBoot = await admin.get(`/api/v1/agents/${sam.id}/boot`);
    expect(internalBoot.body.teamHighlights.map((m: any) => m.title)).toContain("Team-only knowledge");
  });
});

describe("export", () => {
  async function download(agentId: string, key: string) {
    const req = new NextRequest(`http://localhost/api/v1/agents/${agentId}/export`, { headers: { authorization: `Bearer ${key}` } });
    const res = await exportRoute(req, { params: Promise.resolve({ agentId }) });
    return { res, files: res.status === 200 ? unzipSync(new Uint8Array(await res.arrayBuffer())) : {} };
  }

  it("zips the agent's memory as the memory/ folder", async () => {
    const client = await createClient("Sunrise Plumbing Export");
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id, name: "Santos Export" });
    await as(santos.key).put("/api/v1/agents/me/documents/soul", { content: "# Santos" });
    await as(santos.key).put("/api/v1/agents/me/documents/working", { content: "scratch" });
    await as(santos.key).put("/api/v1/agents/me/documents/daily", { content: "note", date: "2026-02-14" });
    await write(santos.key, { tier: "core", category: "client", title: "Sunrise serves Polk County", content: "Residential plumbing.", confidence: 0.9 });
    await write(santos.key, { tier: "core", category: "preference", title: "Owner prefers texts after 5pm", confidence: 0.8 });
    await write(santos.key, { tier: "working", category: "commitment", title: "Send Friday report", confidence: 0.9 });
    await write(santos.key, { tier: "working", category: "thread", title: "Dana's water heater", confidence: 0.8 });
    const decision = await write(santos.key, {
      tier: "learning",
      category: "decision",
      title: "Offer Tuesday slot first",
      confidence: 0.7,
      decisionContext: { reasoning: "Tuesdays are slow", killCriteria: "Stop if bookings drop" },
    });
    await as(santos.key).post(`/api/v1/memories/${decision.body.memory.id}/outcome`, { result: "booked", success: true });
    const gone = await write(santos.key, insightOf("Archived insight"));
    await as(santos.key).patch(`/api/v1/memories/${gone.body.memory.id}`, { status: "archived" });

    const { res, files } = await download("me", santos.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain('filename="santos-export-memory.zip"');
    const paths = Object.keys(files).sort();
    const text = (p: string) => strFromU8(files[p]!);
    expect(text("SOUL.md")).toBe("# Santos");
    expect(text("WORKING.md")).toBe("scratch");
    expect(text("memory/daily/2026-02-14.md")).toBe("note");
    expect(text("memory/core/identity.md")).toContain("Client: Sunrise Plumbing Export");
    expect(text("memory/core/client.md")).toContain("## Sunrise serves Polk County");
    expect(text("memory/core/preferences.md")).toContain("Owner prefers texts after 5pm");
    expect(text("memory/working/pending.md")).toContain("## Send Friday report");
    expect(paths.some((p) => /^memory\/working\/threads\/dana-s-water-heater-[0-9a-f]{8}\.md$/.test(p))).toBe(true);
    const decisionFile = paths.find((p) => p.startsWith("memory/learning/decisions/"))!;
    expect(text(decisionFile)).toMatch(/^---\nid: /);
    expect(text(decisionFile)).toContain("Kill criteria: Stop if bookings drop");
    expect(text(decisionFile)).toContain("Success: yes");
    expect(paths.some((p) => p.startsWith("memory/learning/outcomes/outcome-offer-tuesday-slot-first"))).toBe(true);
    expect(paths.join("\n")).not.toContain("archived-insight");
  });

  it("answers 404 for another agent's export", async () => {
    const a = await createAgent({ kind: "internal", role: "manager" });
    const b = await createAgent({ kind: "internal", role: "specialist" });
    expect((await download(b.id, a.key)).res.status).toBe(404);
    expect((await download(b.id, TEST_ADMIN_KEY)).res.status).toBe(200);
  });
});

function insightOf(title: string) {
  return { tier: "learning", category: "insight", title, confidence: 0.8 };
}
