import "server-only";
import type { Caller } from "@/lib/auth/caller";
import type { Queryable } from "@/lib/db";
import { ApiError, forbidden, notFound } from "@/lib/http/errors";
import { getContact } from "@/lib/review/queries";

/**
 * Where an agent's note, event or playbook idea is filed: under the contact's client when it names a
 * contact; otherwise a field agent's own client, or for an internal agent the client it names (or
 * HQ). RLS refuses the same combinations again.
 */
export async function resolveAgentWriteScope(
  tx: Queryable,
  caller: Caller,
  p: { contactId?: string; clientId?: string },
): Promise<{ agentId: string; clientId: string | null; contactId: string | null }> {
  if (caller.type !== "agent") throw forbidden("Only agents write notes, events and playbook updates");
  if (p.contactId) {
    const contact = await getContact(tx, { id: p.contactId });
    if (!contact) throw notFound("Contact");
    if (contact.optOut) throw new ApiError("conflict", "This contact opted out; nothing more is stored about them");
    if (p.clientId && p.clientId !== contact.clientId) throw new ApiError("validation_failed", "clientId is not the contact's client");
    return { agentId: caller.agentId, clientId: contact.clientId, contactId: contact.id };
  }
  if (caller.kind === "field") {
    if (p.clientId && p.clientId !== caller.clientId) throw notFound("Client");
    return { agentId: caller.agentId, clientId: caller.clientId, contactId: null };
  }
  if (p.clientId) {
    const rows = await tx.query("select 1 from clients where id = $1", [p.clientId]);
    if (!rows.length) throw new ApiError("validation_failed", "clientId does not name a client");
  }
  return { agentId: caller.agentId, clientId: p.clientId ?? null, contactId: null };
}
