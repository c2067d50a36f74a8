// PUT /api/v1/contacts/[id]/facts/[key] — write a fact directly (manager agents and HQ admins only; 403 for everyone else)
import { route } from "@/lib/http/route";
import { putFact } from "@/lib/review/contacts-service";
import { reviewContracts as c } from "@/lib/review/contracts";

export const PUT = route(c.putFact, async ({ caller, body, params }) => putFact(caller, params.id, params.key, body));
