// POST /api/v1/contacts/[id]/opt-out — erase the contact's personal data and mark it opted out (manager agents, HQ admins)
import { route } from "@/lib/http/route";
import { optOutContact } from "@/lib/review/contacts-service";
import { reviewContracts as c } from "@/lib/review/contracts";

export const POST = route(c.optOut, async ({ caller, params }) => optOutContact(caller, params.id));
