// GET /api/v1/suggestions?status= — suggestions with the current fact and source interaction beside each
// POST /api/v1/suggestions — propose a fact (422 pii_refused / locked_constant at once; nothing stored)
import { json, route } from "@/lib/http/route";
import { reviewContracts as c } from "@/lib/review/contracts";
import { createSuggestion, listSuggestions } from "@/lib/review/suggestions-service";

export const GET = route(c.listSuggestions, async ({ caller, query }) => listSuggestions(caller, query));

// the same proposal made twice while pending answers 200 with `deduplicated`
export const POST = route(c.createSuggestion, async ({ caller, body }) => {
  const result = await createSuggestion(caller, body);
  return "deduplicated" in result ? json(result, 200) : result;
});
