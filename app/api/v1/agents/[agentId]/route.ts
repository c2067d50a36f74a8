// GET /api/v1/agents/[agentId] — one agent; `me` is the calling agent (404 for another tenant's)
// PATCH /api/v1/agents/[agentId] — rename, change role or kbAccess, disable (HQ admin)
import { updateAgentBody } from "@/lib/agents/schemas";
import { getAgent, updateAgent } from "@/lib/agents/service";
import { route } from "@/lib/http/route";

export const GET = route({ permission: "agents.read" }, async ({ caller, params }) => getAgent(caller, params.agentId));

export const PATCH = route({ permission: "agents.write", body: updateAgentBody }, async ({ caller, body, params }) =>
  updateAgent(caller, params.agentId, body),
);
