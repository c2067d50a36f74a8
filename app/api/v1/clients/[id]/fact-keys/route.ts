// GET /api/v1/clients/[id]/fact-keys — the client's business-relevance allow-list of fact keys
// PUT /api/v1/clients/[id]/fact-keys — replace it (HQ admins); an empty list means "no list"
import { route } from "@/lib/http/route";
import { getFactKeys, setFactKeys } from "@/lib/review/contacts-service";
import { reviewContracts as c } from "@/lib/review/contracts";

export const GET = route(c.getFactKeys, async ({ caller, params }) => getFactKeys(caller, params.id));

export const PUT = route(c.setFactKeys, async ({ caller, body, params }) => setFactKeys(caller, params.id, body));
