// GET /api/v1/agents/[agentId]/keys — the agent's keys, without secrets (HQ admin)
// POST /api/v1/agents/[agentId]/keys — issue a key; the key is in this response only (HQ admin)
import { agentContracts as c } from "@/lib/agents/contracts";
import { issueKey, listKeys } from "@/lib/agents/service";
import { route } from "@/lib/http/route";

export const GET = route(c.listKeys, async ({ caller, params }) => listKeys(caller, params.agentId));

export const POST = route(c.issueKey, async ({ caller, body, params }) => issueKey(caller, params.agentId, body));
