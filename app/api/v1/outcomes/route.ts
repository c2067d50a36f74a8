// GET /api/v1/outcomes — decisions awaiting outcomes, success rates per agent and tag, recent outcomes (HQ)
import { route } from "@/lib/http/route";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";
import { getOutcomes } from "@/lib/lifecycle/outcomes";

export const GET = route(c.outcomes, async ({ caller, query }) => getOutcomes(caller, query));
