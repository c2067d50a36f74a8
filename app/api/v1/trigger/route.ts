// POST /api/v1/trigger — the smart trigger's level and matched triggers for a message (HQ: as agentId)
import { route } from "@/lib/http/route";
import { triggerBody } from "@/lib/retrieval/schemas";
import { triggerFor } from "@/lib/retrieval/service";

export const POST = route({ permission: "retrieval.use", body: triggerBody }, async ({ caller, body }) => triggerFor(caller, body));
