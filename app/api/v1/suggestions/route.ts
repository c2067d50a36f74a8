// GET /api/v1/suggestions?status= — suggestions with the current fact and source interaction beside each
// POST /api/v1/suggestions — propose a fact (422 pii_refused / locked_constant at once; nothing stored)
import { json, route } from "@/lib/http/route";
import { createSuggestionBody, listSuggestionsQuery } from "@/lib/review/schemas";
import { createSuggestion, listSuggestions } from "@/lib/review/suggestions-service";

export const GET = route({ permission: "suggestions.read", query: listSuggestionsQuery }, async ({ caller, query }) =>
  listSuggestions(caller, query),
);

export const POST = route({ permission: "suggestions.propose", body: createSuggestionBody }, async ({ caller, body }) => {
  const result = await createSuggestion(caller, body);
  return json(result, "deduplicated" in result ? 200 : 201);
});
