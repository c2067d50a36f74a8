import { describe, expect, it } from "vitest";
import { admin } from "../helpers/api";
import { getDatabase } from "@/lib/db";
import { seedAgentMemoryDemo } from "@/lib/demo/agent-memory";
import { seedDemoIfEmpty } from "@/lib/demo/seed";

describe("the agent-memory demo", () => {
  it("gives the demo agents documents and memories, once", async () => {
    const db = await getDatabase();
    expect(await seedDemoIfEmpty(db)).toBe(true);
    const agents = (await admin.get("/api/v1/agents")).body.agents as { id: string; name: string }[];
    const id = (name: string) => agents.find((a) => a.name === name)!.id;

    const boot = await admin.get(`/api/v1/agents/${id("Sybil")}/boot`);
    expect(boot.status).toBe(200);
    expect(boot.body.soul.content).toContain("SYBIL");
    expect(boot.body.working.content.length).toBeLessThanOrEqual(2000);
    expect(boot.body.daily.content).toContain("Daily Note");
    expect(boot.body.pending.map((m: any) => m.title)).toEqual(["Review the shared-memory schema with Bridget"]);
    expect(boot.body.teamHighlights.map((m: any) => m.title)).toContain("Time is never an issue for AI agents");

    const decisions = await admin.get(`/api/v1/agents/${id("Saber")}/memories?category=decision`);
    const decision = decisions.body.memories[0];
    expect(decision.decisionContext.killCriteria).toContain("0.03%");
    expect(decision.outcome).toMatchObject({ result: "success", success: true });
    const outcome = await admin.get(`/api/v1/memories/${decision.outcome.outcomeId}`);
    expect(outcome.body.memory).toMatchObject({ category: "outcome", relatedIds: [decision.id] });

    const santos = await admin.get(`/api/v1/agents/${id("Santos")}/boot`);
    expect(santos.body).not.toHaveProperty("teamHighlights");
    expect(santos.body.core.map((m: any) => m.category).sort()).toEqual(["client", "preference"]);

    const count = async () => (await db.query<{ n: number }>("select count(*)::int as n from memories"))[0]!.n;
    const before = await count();
    await db.transaction((tx) => seedAgentMemoryDemo(tx));
    expect(await count()).toBe(before);
    const [embedded] = await db.query<{ n: number }>("select count(*)::int as n from memories where embedding is null");
    expect(embedded!.n).toBe(0);
  });
});
