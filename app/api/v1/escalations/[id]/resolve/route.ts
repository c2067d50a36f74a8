// POST /api/v1/escalations/[id]/resolve — resolve, optionally writing the fix to the knowledge base linked to it
import { route } from "@/lib/http/route";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";
import { resolveEscalation } from "@/lib/lifecycle/escalations";

export const POST = route(c.resolveEscalation, async ({ caller, body, params }) => resolveEscalation(caller, params.id, body));
