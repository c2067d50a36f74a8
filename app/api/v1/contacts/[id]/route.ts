// GET /api/v1/contacts/[id] — the contact and its current facts (404 for another client's)
// PATCH /api/v1/contacts/[id] — update name, phone, email, summary, stage, sentiment (manager agents, HQ admins)
import { route } from "@/lib/http/route";
import { getContact, updateContact } from "@/lib/review/contacts-service";
import { reviewContracts as c } from "@/lib/review/contracts";

export const GET = route(c.getContact, async ({ caller, params }) => getContact(caller, params.id));

export const PATCH = route(c.updateContact, async ({ caller, body, params }) => updateContact(caller, params.id, body));
