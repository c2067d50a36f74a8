// GET /api/v1/contacts/[id] — the contact and its current facts (404 for another client's)
// PATCH /api/v1/contacts/[id] — update name, phone, email, summary, stage, sentiment (manager agents, HQ admins)
import { route } from "@/lib/http/route";
import { getContact, updateContact } from "@/lib/review/contacts-service";
import { updateContactBody } from "@/lib/review/schemas";

export const GET = route({ permission: "contacts.read" }, async ({ caller, params }) => getContact(caller, params.id));

export const PATCH = route({ permission: "contacts.write", body: updateContactBody }, async ({ caller, body, params }) =>
  updateContact(caller, params.id, body),
);
