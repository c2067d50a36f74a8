import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import * as q from "./queries";
import type { createNoteBody, listNotesQuery, purgeNotesBody } from "./schemas";
import { refuseIdentifiers } from "@/lib/review/refusals";
import { resolveAgentWriteScope } from "./scope";
import { asJobRun } from "@/lib/metrics/jobs";

/** An ephemeral working note: it expires 24 h after it is written and is then never returned. */
export async function createNote(caller: Caller, body: z.infer<typeof createNoteBody>) {
  refuseIdentifiers({ content: body.content });
  return asCaller(caller, async (tx) => {
    const scope = await resolveAgentWriteScope(tx, caller, body);
    const note = await q.insertNote(tx, { ...scope, content: body.content });
    await recordAudit(tx, { action: "notes.create", targetType: "agent_note", targetId: note.id, clientId: scope.clientId, details: { contactId: scope.contactId } });
    return { note };
  });
}

export async function listNotes(caller: Caller, query: z.infer<typeof listNotesQuery>) {
  return { notes: await asCaller(caller, (tx) => q.listNotes(tx, query)) };
}

/** The cleanup job: deletes notes past their 24 h (HQ admins; also callable from system jobs). */
export async function purgeNotes(caller: Caller, body: z.infer<typeof purgeNotesBody>) {
  return asJobRun("purge_notes", () =>
    asCaller(caller, async (tx) => {
      const { deleted } = await q.purgeExpiredNotes(tx, { now: body.now });
      await recordAudit(tx, { action: "notes.purge", targetType: "agent_notes", details: { deleted, asOf: body.now ?? null } });
      return { deleted };
    }),
  );
}
