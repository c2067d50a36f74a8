// Agent memory: boot context and memory writes on the embedded database. The
// acceptance criterion is a boot well under 2 seconds; the memory write is measured at the
// 200-memory cap, where every write also archives the least valuable memory.
import { NextRequest } from "next/server";
import { GET as bootRoute } from "@/app/api/v1/agents/[agentId]/boot/route";
import { createAgent, issueKey } from "@/lib/agents/service";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { asSystem } from "@/lib/db";
import { putDocument } from "@/lib/documents/service";
import { toVectorLiteral } from "@/lib/embeddings";
import { embedLocal, LOCAL_MODEL } from "@/lib/embeddings/local";
import { getBootContext } from "@/lib/memories/boot-context";
import { MEMORY_CAP } from "@/lib/memories/rules";
import { listMemories, writeMemory } from "@/lib/memories/service";
import { measure, type BenchRow } from "./measure";

const ADMIN: HqCaller = { type: "hq", userId: null, name: "bench", email: null, role: "admin" };
const N = 200;
const TEAM_MEMORIES = 50;

async function benchAgent(name: string) {
  const { agent } = await createAgent(ADMIN, { name, kind: "internal", role: "orchestrator" });
  const caller: AgentCaller = { type: "agent", agentId: agent.id, name, kind: "internal", role: "orchestrator", clientId: null, kbAccess: "read" };
  return { agent, caller };
}

/** `count` active agent-scope memories across the tiers, with real (local) embeddings. */
async function fillMemories(agentId: string, count: number, scope: "agent" | "team" = "agent") {
  const kinds = [
    ["core", "procedure"],
    ["working", "commitment"],
    ["working", "project"],
    ["working", "thread"],
    ["learning", "insight"],
    ["learning", "decision"],
  ] as const;
  await asSystem(async (tx) => {
    for (let i = 0; i < count; i++) {
      const [tier, category] = kinds[i % kinds.length]!;
      const title = `${scope} ${category} ${i}: follow up on the water heater quote for client ${i % 17}`;
      await tx.query(
        `insert into memories (agent_id, scope, tier, category, title, content, confidence, tags, embedding, embedding_model)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9::vector, '${LOCAL_MODEL}')`,
        [agentId, scope, tier, category, title, `Details of ${title}.`, 0.5 + (i % 50) / 100, ["bench"], toVectorLiteral(embedLocal(title))],
      );
    }
  });
}

export async function benchAgentMemory(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const { agent, caller } = await benchAgent("Bench Boot");
  await fillMemories(agent.id, MEMORY_CAP);
  const { agent: teammate } = await benchAgent("Bench Teammate");
  await fillMemories(teammate.id, TEAM_MEMORIES, "team");
  await putDocument(caller, "me", "soul", { content: "# Bench\n\n" + "Identity and territory. ".repeat(200) });
  await putDocument(caller, "me", "working", { content: "## Current task\n" + "x".repeat(1900) });
  await putDocument(caller, "me", "daily", { content: "# Today\n- benchmarked the boot" });
  const notes = `${MEMORY_CAP} memories, ${TEAM_MEMORIES} team, 3 documents`;

  rows.push(await measure("boot context (service, one transaction)", { n: N, notes }, () => getBootContext(caller, "me")));

  const { key } = await issueKey(ADMIN, agent.id, { label: "bench" });
  rows.push(
    await measure("GET /agents/me/boot (handler, agent key)", { n: N, notes: `${notes}; includes key auth + JSON` }, async () => {
      const req = new NextRequest("http://localhost/api/v1/agents/me/boot", { headers: { authorization: `Bearer ${key}` } });
      const res = await bootRoute(req, { params: Promise.resolve({ agentId: "me" }) });
      if (res.status !== 200) throw new Error(`boot answered ${res.status}`);
      await res.arrayBuffer();
    }),
  );

  const write = (c: AgentCaller, i: number) =>
    writeMemory(c, "me", {
      tier: "learning",
      category: "insight",
      title: `Insight ${i}: customers answer SMS within the hour`,
      content: "Observed across the week's threads; email replies took a day.",
      confidence: 0.9,
      tags: ["bench"],
      sourceTraceId: `bench-${c.agentId}-${i}`,
    });
  rows.push(await measure("memory write at the cap (archives one)", { n: N, notes: "local embedder; dedup check + insert + cap" }, (i) => write(caller, i)));

  const fresh = await benchAgent("Bench Fresh");
  rows.push(await measure("memory write below the cap", { n: 100, notes: "local embedder" }, (i) => write(fresh.caller, i)));

  let version = (await putDocument(caller, "me", "working", { content: "start" })).version;
  rows.push(
    await measure("scratchpad save (expectedVersion)", { n: N, notes: "conditional update + embedding" }, async (i) => {
      version = (await putDocument(caller, "me", "working", { content: `## Current task\nstep ${i}`, expectedVersion: version })).version;
    }),
  );

  rows.push(
    await measure("memories list (status=all, 100 rows)", { n: N, notes: `${MEMORY_CAP + N + 5} rows for the agent` }, () =>
      listMemories(caller, "me", { status: "all", limit: 100, offset: 0 }),
    ),
  );
  return rows;
}
