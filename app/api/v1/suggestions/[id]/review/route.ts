// POST /api/v1/suggestions/[id]/review — approve (optionally with an edited value) or reject with a reason
import { route } from "@/lib/http/route";
import { reviewContracts as c } from "@/lib/review/contracts";
import { reviewSuggestion } from "@/lib/review/suggestions-service";

export const POST = route(c.reviewSuggestion, async ({ caller, body, params }) => reviewSuggestion(caller, params.id, body));
