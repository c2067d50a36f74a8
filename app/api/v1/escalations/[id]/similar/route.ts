// GET /api/v1/escalations/{id}/similar — open escalations likely the same issue, to resolve together
import { route } from "@/lib/http/route";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";
import { similarEscalations } from "@/lib/lifecycle/escalations";

export const GET = route(c.similarEscalations, async ({ caller, params, query }) => similarEscalations(caller, params.id, query));
