// GET /api/v1/contacts/lookup?phone=|email= — the contact and its facts in one call
import { route } from "@/lib/http/route";
import { lookupContact } from "@/lib/review/contacts-service";
import { reviewContracts as c } from "@/lib/review/contracts";

export const GET = route(c.lookupContact, async ({ caller, query }) => lookupContact(caller, query));
