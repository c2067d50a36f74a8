// POST /api/v1/jobs/purge-notes — delete agent notes past their 24 h (HQ admins; `now` replays a given time)
import { purgeNotes } from "@/lib/agent-log/notes-service";
import { purgeNotesBody } from "@/lib/agent-log/schemas";
import { route } from "@/lib/http/route";

export const POST = route({ permission: "notes.purge", body: purgeNotesBody }, async ({ caller, body }) => purgeNotes(caller, body));
