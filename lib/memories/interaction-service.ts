import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { recordAudit } from "@/lib/audit/queries";
import { asCaller } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, forbidden, notFound } from "@/lib/http/errors";
import { getContact } from "@/lib/review/queries";
import { noteInteractionWrite } from "@/lib/retrieval/term-stats";
import * as q from "./interaction-queries";
import type { createInteractionBody, listInteractionsQuery } from "./schemas";

/**
 * Records one message of a conversation (the raw transcript), embedded for recall. Agents
 * write in their own name; a field agent only for its own client. A contact is filed under its own
 * client: one the caller cannot see, or of another client than the one named, answers exactly as a
 * missing contact (RLS refuses the same pairing again).
 */
export async function createInteraction(caller: Caller, body: z.infer<typeof createInteractionBody>) {
  if (caller.type !== "agent") throw forbidden("Interactions are recorded by agents");
  let clientId = body.clientId ?? null;
  if (caller.kind === "field") {
    if (clientId && clientId !== caller.clientId) throw forbidden("A field agent records interactions for its own client only");
    clientId = caller.clientId;
  }
  const vectors = await tryEmbed([body.content]);
  const interaction = {
    id: randomUUID(),
    clientId,
    agentId: caller.agentId,
    contactId: body.contactId ?? null,
    channel: body.channel,
    direction: body.direction,
    speaker: body.speaker ?? "",
    content: body.content,
    occurredAt: body.occurredAt ? new Date(body.occurredAt) : new Date(),
    createdAt: new Date(),
  };
  await asCaller(caller, async (tx) => {
    if (interaction.contactId) {
      const contact = await getContact(tx, { id: interaction.contactId });
      if (!contact || (clientId && contact.clientId !== clientId)) throw notFound("Contact");
      interaction.clientId = clientId = contact.clientId;
    }
    if (clientId && caller.kind === "internal") {
      const client = await tx.query("select 1 from clients where id = $1", [clientId]);
      if (!client.length) throw new ApiError("validation_failed", "clientId does not name a client");
    }
    await q.insertInteraction(tx, { ...interaction, embedding: vectors ? toVectorLiteral(vectors[0]!) : null });
    // the message itself stays out of the log: contact erasure must be able to remove it
    await recordAudit(tx, {
      action: "interaction.create",
      targetType: "interaction",
      targetId: interaction.id,
      clientId,
      details: { contactId: interaction.contactId, channel: interaction.channel, direction: interaction.direction },
    });
  });
  // the conversation search's word statistics are rebuilt shortly after, in a batch
  noteInteractionWrite(interaction.agentId, clientId);
  return { interaction: { ...interaction, embedded: vectors !== null } };
}

/** Interactions the caller may read (RLS: HQ; managers and orchestrators; field agents their client's). */
export async function listInteractions(caller: Caller, query: z.infer<typeof listInteractionsQuery>) {
  return { interactions: await asCaller(caller, (tx) => q.listInteractions(tx, query)) };
}
