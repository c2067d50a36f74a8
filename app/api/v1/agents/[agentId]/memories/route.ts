// GET /api/v1/agents/[agentId]/memories — the agent's memories (?tier=&category=&status=&scope=&q=&limit=&offset=)
// POST /api/v1/agents/[agentId]/memories — memory_write: 201 {memory, archived}; 200 {memory, deduplicated} on a seen sourceTraceId
import { json, route } from "@/lib/http/route";
import { memoryContracts as c } from "@/lib/memories/contracts";
import { listMemories, writeMemory } from "@/lib/memories/service";

export const GET = route(c.list, async ({ caller, query, params }) => listMemories(caller, params.agentId, query));

export const POST = route(c.write, async ({ caller, body, params }) => {
  const { created, ...result } = await writeMemory(caller, params.agentId, body);
  return created ? result : json(result, 200);
});
