// GET /api/v1/retrieval/stats — Dashboard analytics: retrievals per level per day, knowledge use, reviews, open items
import { route } from "@/lib/http/route";
import { getRetrievalStats } from "@/lib/retrieval/dashboard";
import { retrievalStatsQuery } from "@/lib/retrieval/schemas";

export const GET = route({ permission: "retrieval.analytics", query: retrievalStatsQuery }, async ({ caller, query }) =>
  getRetrievalStats(caller, query),
);
