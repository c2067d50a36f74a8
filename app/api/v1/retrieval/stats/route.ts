// GET /api/v1/retrieval/stats — Dashboard analytics: retrievals per level per day, knowledge use, reviews, open items
import { route } from "@/lib/http/route";
import { retrievalContracts as c } from "@/lib/retrieval/contracts";
import { getRetrievalStats } from "@/lib/retrieval/usage/dashboard";

export const GET = route(c.stats, async ({ caller, query }) => getRetrievalStats(caller, query));
