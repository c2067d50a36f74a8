// POST /api/v1/suggestions/bulk-review — one decision for many suggestions; each succeeds or fails on its own
import { route } from "@/lib/http/route";
import { reviewContracts as c } from "@/lib/review/contracts";
import { reviewSuggestions } from "@/lib/review/suggestions-service";

export const POST = route(c.bulkReview, async ({ caller, body }) => reviewSuggestions(caller, body));
