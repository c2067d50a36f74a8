// GET /api/v1/contacts/[id]/history?key= — every version of the contact's facts, superseded ones included
import { route } from "@/lib/http/route";
import { getFactHistory } from "@/lib/review/contacts-service";
import { factHistoryQuery } from "@/lib/review/schemas";

export const GET = route({ permission: "contacts.read", query: factHistoryQuery }, async ({ caller, params, query }) =>
  getFactHistory(caller, params.id, query.key),
);
