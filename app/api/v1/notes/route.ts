// GET /api/v1/notes — live agent notes the caller may see (expired ones never)
// POST /api/v1/notes — write an ephemeral note (agents; expires after 24 h)
import { createNote, listNotes } from "@/lib/agent-log/notes-service";
import { createNoteBody, listNotesQuery } from "@/lib/agent-log/schemas";
import { json, route } from "@/lib/http/route";

export const GET = route({ permission: "notes.read", query: listNotesQuery }, async ({ caller, query }) => listNotes(caller, query));

export const POST = route({ permission: "notes.write", body: createNoteBody }, async ({ caller, body }) =>
  json(await createNote(caller, body), 201),
);
