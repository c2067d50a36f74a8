// POST /api/v1/contacts/[id]/opt-out — erase the contact's personal data and mark it opted out (manager agents, HQ admins)
import { route } from "@/lib/http/route";
import { optOutContact } from "@/lib/review/contacts-service";

export const POST = route({ permission: "contacts.opt_out" }, async ({ caller, params }) => optOutContact(caller, params.id));
