// GET /api/v1/contacts — contacts the caller may see (filters: clientId, q, includeOptedOut)
// POST /api/v1/contacts — create a contact (manager agents, HQ admins)
import { json, route } from "@/lib/http/route";
import { createContact, listContacts } from "@/lib/review/contacts-service";
import { createContactBody, listContactsQuery } from "@/lib/review/schemas";

export const GET = route({ permission: "contacts.read", query: listContactsQuery }, async ({ caller, query }) =>
  listContacts(caller, query),
);

export const POST = route({ permission: "contacts.write", body: createContactBody }, async ({ caller, body }) =>
  json(await createContact(caller, body), 201),
);
