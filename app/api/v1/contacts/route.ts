// GET /api/v1/contacts — contacts the caller may see (filters: clientId, q, includeOptedOut)
// POST /api/v1/contacts — create a contact (manager agents, HQ admins)
import { route } from "@/lib/http/route";
import { createContact, listContacts } from "@/lib/review/contacts-service";
import { reviewContracts as c } from "@/lib/review/contracts";

export const GET = route(c.listContacts, async ({ caller, query }) => listContacts(caller, query));

export const POST = route(c.createContact, async ({ caller, body }) => createContact(caller, body));
