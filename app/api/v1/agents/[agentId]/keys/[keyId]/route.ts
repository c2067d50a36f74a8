// DELETE /api/v1/agents/[agentId]/keys/[keyId] — revoke a key at once (HQ admin)
import { agentContracts as c } from "@/lib/agents/contracts";
import { revokeKey } from "@/lib/agents/service";
import { route } from "@/lib/http/route";

export const DELETE = route(c.revokeKey, async ({ caller, params }) => revokeKey(caller, params.agentId, params.keyId));
