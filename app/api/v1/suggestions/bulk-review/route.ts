// POST /api/v1/suggestions/bulk-review — one decision for many suggestions; each succeeds or fails on its own
import { route } from "@/lib/http/route";
import { bulkReviewBody } from "@/lib/review/schemas";
import { reviewSuggestions } from "@/lib/review/suggestions-service";

export const POST = route({ permission: "suggestions.review", body: bulkReviewBody }, async ({ caller, body }) =>
  reviewSuggestions(caller, body),
);
