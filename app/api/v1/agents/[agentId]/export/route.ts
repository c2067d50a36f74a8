// GET /api/v1/agents/[agentId]/export — the agent's memory as the memory/ folder, zipped
import { route } from "@/lib/http/route";
import { memoryContracts as c } from "@/lib/memories/contracts";
import { exportAgentMemory } from "@/lib/memories/export";

export const GET = route(c.export, async ({ caller, params }) => {
  const { filename, zip } = await exportAgentMemory(caller, params.agentId);
  return new Response(zip, {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
});
