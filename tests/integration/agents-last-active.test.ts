// "Last active" on the agents list: the latest of a key's use, the agent's own retrievals and its
// audited writes, seen by HQ only.
import { describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent } from "../helpers/fixtures";

const listed = async (id: string, key?: string) => {
  const res = await (key ? as(key) : admin).get("/api/v1/agents");
  expect(res.status).toBe(200);
  return res.body.agents.find((a: { id: string }) => a.id === id);
};

describe("GET /agents: last active", () => {
  it("is null until the agent acts, then its newest key use, retrieval or write", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    expect(await listed(agent.id)).toMatchObject({ lastActiveAt: null, lastActivity: null });

    expect((await as(agent.key).get("/api/v1/agents/me")).status).toBe(200);
    const used = await listed(agent.id);
    expect(used.lastActivity).toBe("key");
    expect(Date.now() - Date.parse(used.lastActiveAt)).toBeLessThan(60_000);

    const write = await as(agent.key).post(`/api/v1/agents/me/memories`, { tier: "learning", category: "insight", title: "Customers prefer morning visits", confidence: 0.8 });
    expect(write.status, JSON.stringify(write.body)).toBe(201);
    expect((await listed(agent.id)).lastActivity).toBe("write");

    expect((await as(agent.key).post("/api/v1/retrieve", { message: "When do customers like visits?", scopes: ["memories"] })).status).toBe(200);
    const retrieved = await listed(agent.id);
    expect(retrieved.lastActivity).toBe("retrieval");
    expect(Date.parse(retrieved.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(used.lastActiveAt));
  });

  it("is HQ's to see: an agent reading the list gets nulls", async () => {
    const agent = await createAgent({ kind: "internal", role: "manager" });
    expect((await as(agent.key).get("/api/v1/agents/me")).status).toBe(200);
    expect(await listed(agent.id, agent.key)).toMatchObject({ lastActiveAt: null, lastActivity: null });
    expect((await listed(agent.id)).lastActivity).toBe("key");
  });
});
