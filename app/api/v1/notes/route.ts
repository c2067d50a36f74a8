// GET /api/v1/notes — live agent notes the caller may see (expired ones never)
// POST /api/v1/notes — write an ephemeral note (agents; expires after 24 h)
import { agentLogContracts as c } from "@/lib/agent-log/contracts";
import { createNote, listNotes } from "@/lib/agent-log/notes-service";
import { route } from "@/lib/http/route";

export const GET = route(c.listNotes, async ({ caller, query }) => listNotes(caller, query));

export const POST = route(c.createNote, async ({ caller, body }) => createNote(caller, body));
