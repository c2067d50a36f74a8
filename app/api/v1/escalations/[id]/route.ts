// GET /api/v1/escalations/{id} — one escalation (a field agent: its own client's)
import { route } from "@/lib/http/route";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";
import { getEscalation } from "@/lib/lifecycle/escalations";

export const GET = route(c.getEscalation, async ({ caller, params }) => getEscalation(caller, params.id));
