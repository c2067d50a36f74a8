// GET /api/v1/outcomes — decisions awaiting outcomes, success rates per agent and tag, recent outcomes (HQ)
import { route } from "@/lib/http/route";
import { getOutcomes } from "@/lib/lifecycle/outcomes";
import { outcomesQuery } from "@/lib/lifecycle/schemas";

export const GET = route({ permission: "outcomes.read", query: outcomesQuery }, async ({ caller, query }) => getOutcomes(caller, query));
