// GET /api/v1/contacts/[id]/history?key= — every version of the contact's facts, superseded ones included
import { route } from "@/lib/http/route";
import { getFactHistory } from "@/lib/review/contacts-service";
import { reviewContracts as c } from "@/lib/review/contracts";

export const GET = route(c.factHistory, async ({ caller, params, query }) => getFactHistory(caller, params.id, query.key));
