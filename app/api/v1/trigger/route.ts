// POST /api/v1/trigger — the smart trigger's level and matched triggers for a message (HQ: as agentId)
import { route } from "@/lib/http/route";
import { retrievalContracts as c } from "@/lib/retrieval/contracts";
import { triggerFor } from "@/lib/retrieval/service";

export const POST = route(c.trigger, async ({ caller, body }) => triggerFor(caller, body));
