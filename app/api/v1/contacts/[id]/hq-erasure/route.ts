// DELETE /api/v1/contacts/[id]/hq-erasure — keep HQ's rows: drop what a field manager's opt-out kept for HQ to erase (HQ admins, internal managers)
import { route } from "@/lib/http/route";
import { keepHqMentions } from "@/lib/review/contacts-service";
import { reviewContracts as c } from "@/lib/review/contracts";

export const DELETE = route(c.keepHqMentions, async ({ caller, params }) => keepHqMentions(caller, params.id));
