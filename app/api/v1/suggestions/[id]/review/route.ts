// POST /api/v1/suggestions/[id]/review — approve (optionally with an edited value) or reject with a reason
import { route } from "@/lib/http/route";
import { reviewSuggestionBody } from "@/lib/review/schemas";
import { reviewSuggestion } from "@/lib/review/suggestions-service";

export const POST = route({ permission: "suggestions.review", body: reviewSuggestionBody }, async ({ caller, body, params }) =>
  reviewSuggestion(caller, params.id, body),
);
