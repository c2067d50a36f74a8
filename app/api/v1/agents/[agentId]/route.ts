// GET /api/v1/agents/[agentId] — one agent; `me` is the calling agent (404 for another tenant's)
// PATCH /api/v1/agents/[agentId] — rename, change role or kbAccess, disable (HQ admin)
import { agentContracts as c } from "@/lib/agents/contracts";
import { getAgent, updateAgent } from "@/lib/agents/service";
import { route } from "@/lib/http/route";

export const GET = route(c.get, async ({ caller, params }) => getAgent(caller, params.agentId));

export const PATCH = route(c.update, async ({ caller, body, params }) => updateAgent(caller, params.agentId, body));
