// GET /api/v1/agents — agents the caller may see
// POST /api/v1/agents — create an agent (HQ admin)
import { agentContracts as c } from "@/lib/agents/contracts";
import { createAgent, listAgents } from "@/lib/agents/service";
import { route } from "@/lib/http/route";

export const GET = route(c.list, async ({ caller }) => listAgents(caller));

export const POST = route(c.create, async ({ caller, body }) => createAgent(caller, body));
