// GET /api/v1/agents/[agentId]/memories — the agent's memories (?tier=&category=&status=&scope=&q=&limit=&offset=)
// POST /api/v1/agents/[agentId]/memories — memory_write: 201 {memory, archived}; 200 {memory, deduplicated} on a seen sourceTraceId
import { json, route } from "@/lib/http/route";
import { createMemoryBody, listMemoriesQuery } from "@/lib/memories/schemas";
import { listMemories, writeMemory } from "@/lib/memories/service";

export const GET = route({ permission: "memories.read", query: listMemoriesQuery }, async ({ caller, query, params }) =>
  listMemories(caller, params.agentId, query),
);

export const POST = route({ permission: "memories.write", body: createMemoryBody }, async ({ caller, body, params }) => {
  const { created, ...result } = await writeMemory(caller, params.agentId, body);
  return json(result, created ? 201 : 200);
});
