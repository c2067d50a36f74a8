// POST /api/v1/jobs/purge-notes — delete agent notes past their 24 h (HQ admins; `now` replays a given time)
import { agentLogContracts as c } from "@/lib/agent-log/contracts";
import { purgeNotes } from "@/lib/agent-log/notes-service";
import { route } from "@/lib/http/route";

export const POST = route(c.purgeNotes, async ({ caller, body }) => purgeNotes(caller, body));
