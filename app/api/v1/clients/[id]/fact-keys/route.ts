// GET /api/v1/clients/[id]/fact-keys — the client's business-relevance allow-list of fact keys
// PUT /api/v1/clients/[id]/fact-keys — replace it (HQ admins); an empty list means "no list"
import { route } from "@/lib/http/route";
import { getFactKeys, setFactKeys } from "@/lib/review/contacts-service";
import { factKeysBody } from "@/lib/review/schemas";

export const GET = route({ permission: "contacts.read" }, async ({ caller, params }) => getFactKeys(caller, params.id));

export const PUT = route({ permission: "relevance.write", body: factKeysBody }, async ({ caller, body, params }) =>
  setFactKeys(caller, params.id, body),
);
