import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, forbidden } from "@/lib/http/errors";
import { noteInteractionWrite } from "@/lib/retrieval/term-stats";
import * as q from "./interaction-queries";
import type { createInteractionBody, listInteractionsQuery } from "./schemas";

/**
 * Records one message of a conversation (seed 002's raw transcript), embedded for recall. Agents
 * write in their own name; a field agent only for its own client.
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
    if (clientId && caller.kind === "internal") {
      const client = await tx.query("select 1 from clients where id = $1", [clientId]);
      if (!client.length) throw new ApiError("validation_failed", "clientId does not name a client");
    }
    await q.insertInteraction(tx, { ...interaction, embedding: vectors ? toVectorLiteral(vectors[0]!) : null });
  });
  // the conversation search's word statistics are rebuilt shortly after, in a batch
  noteInteractionWrite(interaction.agentId, clientId);
  return { interaction: { ...interaction, embedded: vectors !== null } };
}

/** Interactions the caller may read (RLS: HQ; managers and orchestrators; field agents their client's). */
export async function listInteractions(caller: Caller, query: z.infer<typeof listInteractionsQuery>) {
  return { interactions: await asCaller(caller, (tx) => q.listInteractions(tx, query)) };
}
