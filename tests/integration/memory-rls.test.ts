import { describe, expect, it } from "vitest";
import { as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";

// The database itself, called directly as an agent's role and claims — no service code in between.

function callerOf(agent: TestAgent, kind: "internal" | "field", role: AgentCaller["role"]): AgentCaller {
  return { type: "agent", agentId: agent.id, name: agent.name, kind, role, clientId: agent.clientId, kbAccess: "read" };
}

async function asAgent<T>(caller: AgentCaller, fn: Parameters<typeof withClaims<T>>[2]) {
  return withClaims(await getDatabase(), claimsFor(caller), fn);
}

const insertMemory = (agentId: string, scope = "agent") =>
  `insert into memories (agent_id, scope, tier, category, title, confidence)
   values ('${agentId}', '${scope}', 'learning', 'insight', 'planted', 0.9)`;

describe("row-level security on agent memory", () => {
  it("refuses another agent's memory: reads return no rows, writes are refused", async () => {
    const a = await createAgent({ kind: "internal", role: "specialist" });
    const b = await createAgent({ kind: "internal", role: "specialist" });
    const mine = await as(a.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", title: "A's own", confidence: 0.8 });
    const theirs = await as(b.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", title: "B's secret", confidence: 0.8 });
    await as(b.key).put("/api/v1/agents/me/documents/soul", { content: "B's soul" });
    const A = callerOf(a, "internal", "specialist");

    // control: the same claims do see A's own rows, so an empty answer below is RLS, not a broken query
    const own = await asAgent(A, (tx) => tx.query("select id from memories where id = $1", [mine.body.memory.id]));
    expect(own).toHaveLength(1);

    const read = await asAgent(A, (tx) => tx.query("select id, title from memories where agent_id = $1", [b.id]));
    expect(read).toEqual([]);
    const docs = await asAgent(A, (tx) => tx.query("select content from agent_documents where agent_id = $1", [b.id]));
    expect(docs).toEqual([]);

    const updated = await asAgent(A, (tx) =>
      tx.query("update memories set title = 'hijacked' where id = $1 returning id", [theirs.body.memory.id]),
    );
    expect(updated).toEqual([]);
    const docUpdate = await asAgent(A, (tx) => tx.query("update agent_documents set content = 'hijacked' where agent_id = $1 returning id", [b.id]));
    expect(docUpdate).toEqual([]);

    await expect(asAgent(A, (tx) => tx.query(insertMemory(b.id)))).rejects.toThrow(/row-level security/);
    await expect(
      asAgent(A, (tx) => tx.query("insert into agent_documents (agent_id, type, content) values ($1, 'working', 'planted')", [b.id])),
    ).rejects.toThrow(/row-level security/);
    // nobody deletes memories: there is no delete grant at all
    await expect(asAgent(A, (tx) => tx.query("delete from memories where id = $1", [mine.body.memory.id]))).rejects.toThrow(/permission denied/);
    // nor moves a memory to another owner or scope
    await expect(
      asAgent(A, (tx) => tx.query("update memories set agent_id = $2 where id = $1", [mine.body.memory.id, b.id])),
    ).rejects.toThrow(/permission denied/);

    const [after] = await (await getDatabase()).query<{ title: string }>("select title from memories where id = $1", [theirs.body.memory.id]);
    expect(after!.title).toBe("B's secret");
    const [soul] = await (await getDatabase()).query<{ content: string }>("select content from agent_documents where agent_id = $1", [b.id]);
    expect(soul!.content).toBe("B's soul");
  });

  it("keeps team scope from field agents and everything from isolated agents", async () => {
    const client = await createClient();
    const sybil = await createAgent({ kind: "internal", role: "manager" });
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const deployer = await createAgent({ kind: "internal", role: "isolated" });
    await as(sybil.key).post("/api/v1/agents/me/memories", { tier: "core", category: "principle", title: "team rule", confidence: 0.9, scope: "team" });

    const S = callerOf(santos, "field", "orchestrator");
    expect(await asAgent(S, (tx) => tx.query("select id from memories where scope = 'team'"))).toEqual([]);
    await expect(asAgent(S, (tx) => tx.query(insertMemory(santos.id, "team")))).rejects.toThrow(/row-level security/);
    // its own private memory is fine
    await asAgent(S, (tx) => tx.query(insertMemory(santos.id)));

    const D = callerOf(deployer, "internal", "isolated");
    // no memory can be filed under an isolated agent, not even by the owning role
    await expect((await getDatabase()).query(insertMemory(deployer.id))).rejects.toThrow(/isolated agents have no memory/);
    expect(await asAgent(D, (tx) => tx.query("select id from memories"))).toEqual([]);
    expect(await asAgent(D, (tx) => tx.query("select id from agent_documents"))).toEqual([]);
    await expect(asAgent(D, (tx) => tx.query(insertMemory(deployer.id)))).rejects.toMatchObject({ code: "42501" });

    const internal = callerOf(sybil, "internal", "manager");
    expect(await asAgent(internal, (tx) => tx.query("select id from memories where scope = 'team'"))).toHaveLength(1);
  });

  it("keeps interactions to the writer's client and away from specialists' reads", async () => {
    const sunrise = await createClient();
    const other = await createClient();
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: sunrise.id });
    const sam = await createAgent({ kind: "internal", role: "specialist" });
    await as(santos.key).post("/api/v1/interactions", { channel: "sms", direction: "inbound", content: "hello from Sunrise" });
    await as(sam.key).post("/api/v1/interactions", { channel: "email", direction: "outbound", content: "to the other client", clientId: other.id });

    const S = callerOf(santos, "field", "orchestrator");
    const seen = await asAgent(S, (tx) => tx.query<{ content: string }>("select content from interactions"));
    expect(seen.map((r) => r.content)).toEqual(["hello from Sunrise"]);
    await expect(
      asAgent(S, (tx) =>
        tx.query("insert into interactions (client_id, agent_id, channel, direction, content) values ($1, $2, 'sms', 'inbound', 'x')", [other.id, santos.id]),
      ),
    ).rejects.toThrow(/row-level security/);
    // writing in another agent's name is refused too
    await expect(
      asAgent(S, (tx) =>
        tx.query("insert into interactions (client_id, agent_id, channel, direction, content) values ($1, $2, 'sms', 'inbound', 'x')", [sunrise.id, sam.id]),
      ),
    ).rejects.toThrow(/row-level security/);
    expect(await asAgent(callerOf(sam, "internal", "specialist"), (tx) => tx.query("select id from interactions"))).toEqual([]);
  });
});
