import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { recordAudit } from "@/lib/audit/queries";
import { asCaller, type Queryable } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, forbidden, notFound } from "@/lib/http/errors";
import { encodeConversationCursor, encodeSequenceCursor } from "@/lib/http/input-guards";
import { noteInteractionWrite } from "@/lib/retrieval/search/term-stats";
import { searchableText } from "./attachments";
import * as bq from "./batch-queries";
import { claimsSettled, createBatch, storeBatch, whenUnclaimed } from "./interaction-batches";
import * as q from "./interaction-queries";
import type { createInteractionBatchBody, createInteractionBody, listConversationsQuery, listInteractionsQuery } from "./schemas";

type Item = z.infer<typeof createInteractionBody>;

/**
 * Records turns of conversations (the raw transcript), embedded for recall, all or nothing: a single
 * turn in one transaction, a batch in short steps made visible at once (./interaction-batches.ts). Agents write in their own name; a field agent only for its own client. A contact is
 * filed under its own client: one the caller cannot see, or of another client than the one named,
 * answers exactly as a missing contact (RLS refuses the same pairing again). A turn whose externalId
 * the agent already stored is not stored again: its stored row is answered, marked deduplicated.
 * Turns are stored in the order given, which orders turns of equal time.
 */
async function recordInteractions(caller: Caller, items: Item[], opts: { batch: boolean }) {
  if (caller.type !== "agent") throw forbidden("Interactions are recorded by agents");
  const refuse = (index: number, err: ApiError): never => {
    if (!opts.batch) throw err;
    // in a batch, any refusal of an item is a 422 naming its position
    throw new ApiError("validation_failed", `interactions[${index}]: ${err.message}`, { index, code: err.code });
  };
  const clientOf = items.map((item, index) => {
    if (caller.kind !== "field") return item.clientId ?? null;
    if (item.clientId && item.clientId !== caller.clientId) refuse(index, forbidden("A field agent records interactions for its own client only"));
    return caller.clientId;
  });
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    if (!item.externalId) return;
    if (seen.has(item.externalId)) refuse(index, new ApiError("validation_failed", `externalId ${item.externalId} appears twice in the batch`));
    seen.set(item.externalId, index);
  });

  // one embedding request for the whole transcript, made before any connection is held; a turn's
  // vector covers its speaker and its attachments' captions too
  const vectors = await tryEmbed(items.map((i) => searchableText(i.speaker, i.content, i.attachments)));
  const now = new Date();
  const rows: q.NewInteraction[] = items.map((item, index) => ({
    id: randomUUID(),
    clientId: clientOf[index]!,
    agentId: caller.agentId,
    contactId: item.contactId ?? null,
    channel: item.channel,
    direction: item.direction,
    speaker: item.speaker ?? "",
    content: item.content,
    occurredAt: item.occurredAt ? new Date(item.occurredAt) : now,
    createdAt: now,
    conversationId: item.conversationId ?? null,
    externalId: item.externalId ?? null,
    attachments: item.attachments ?? [],
    embedding: vectors ? toVectorLiteral(vectors[index]!) : null,
  }));

  const externalIds = [...seen.keys()];
  const batchAudit = (fresh: q.NewInteraction[]) => ({
    action: "interaction.batch",
    targetType: "interaction",
    targetId: null,
    clientId: fresh[0]!.clientId,
    // the messages themselves stay out of the log: contact erasure must be able to remove them
    details: {
      count: fresh.length,
      deduplicated: rows.length - fresh.length,
      contactIds: [...new Set(fresh.map((r) => r.contactId).filter(Boolean))],
      channels: [...new Set(fresh.map((r) => r.channel))],
    },
  });
  // A message id that a batch still being stored claims is waited for: the batch may yet store it.
  // A batch's first step claims its own ids (its row) under the same lock.
  const result = await whenUnclaimed(() =>
    asCaller(
      caller,
      async (tx) => {
        await checkReferences(tx, caller, rows, refuse);
        let stored = new Map<string, q.InteractionRow>();
        if (externalIds.length) {
          await q.lockExternalIds(tx, { agentId: caller.agentId });
          const [holders, earlier] = await Promise.all([bq.externalIdHolders(tx, { externalIds }), q.ownInteractions(tx, { externalIds })]);
          if (!claimsSettled(holders)) return undefined;
          stored = new Map(earlier.map((r) => [r.externalId!, r]));
        }
        const fresh = rows.filter((r) => !r.externalId || !stored.has(r.externalId));
        if (!fresh.length) return { stored, fresh, written: [], batchId: null };
        if (opts.batch) return { stored, fresh, written: [], batchId: await createBatch(tx, caller.agentId, fresh) };
        await q.insertInteractions(tx, fresh);
        await recordAudit(tx, {
          action: "interaction.create",
          targetType: "interaction",
          targetId: fresh[0]!.id,
          clientId: fresh[0]!.clientId,
          details: { contactId: fresh[0]!.contactId, channel: fresh[0]!.channel, direction: fresh[0]!.direction },
        });
        // a single write answers the row as stored (its conversation included)
        return { stored, fresh, written: await q.ownInteractions(tx, { ids: [fresh[0]!.id] }), batchId: null };
      },
      // a batch is bulk work from its first step
      opts.batch ? { lane: "bulk" } : {},
    ),
  );
  if (result.batchId) await storeBatch(caller, result.batchId, result.fresh, batchAudit(result.fresh));
  // the conversation search's word statistics are rebuilt shortly after, in a batch
  for (const scope of new Set(result.fresh.map((r) => `${r.clientId ?? ""}`))) noteInteractionWrite(caller.agentId, scope || null);
  return rows.map((row) => {
    const earlier = row.externalId ? result.stored.get(row.externalId) : undefined;
    return { id: earlier?.id ?? row.id, externalId: row.externalId, earlier, written: result.written.find((w) => w.id === row.id) };
  });
}

/** Contacts and clients the turns name: visible to the caller, of the same client, not opted out. */
async function checkReferences(tx: Queryable, caller: Caller & { type: "agent" }, rows: q.NewInteraction[], refuse: (index: number, err: ApiError) => never) {
  const contactIds = [...new Set(rows.map((r) => r.contactId).filter((id): id is string => id !== null))];
  const contacts = new Map(contactIds.length ? (await q.contactsForInteractions(tx, { ids: contactIds })).map((c) => [c.id, c]) : []);
  rows.forEach((row, index) => {
    if (!row.contactId) return;
    const contact = contacts.get(row.contactId);
    if (!contact || (row.clientId && contact.clientId !== row.clientId)) refuse(index, notFound("Contact"));
    if (contact!.optOut) refuse(index, new ApiError("conflict", "This contact opted out; nothing more is stored about them"));
    row.clientId = contact!.clientId;
  });
  if (caller.kind !== "internal") return;
  const clientIds = [...new Set(rows.map((r) => r.clientId).filter((id): id is string => id !== null))];
  const known = new Set(clientIds.length ? await q.existingClients(tx, { ids: clientIds }) : []);
  rows.forEach((row, index) => {
    if (row.clientId && !known.has(row.clientId)) refuse(index, new ApiError("validation_failed", "clientId does not name a client"));
  });
}

/** POST /interactions: one turn; `deduplicated` with the stored one when its externalId was seen before. */
export async function createInteraction(caller: Caller, body: Item) {
  const [recorded] = await recordInteractions(caller, [body], { batch: false });
  if (recorded!.earlier) return { interaction: recorded!.earlier, deduplicated: true as const };
  return { interaction: recorded!.written! };
}

/** POST /interactions/batch: a transcript in one call, all or nothing; each item's id in the order sent. */
export async function createInteractionBatch(caller: Caller, body: z.infer<typeof createInteractionBatchBody>) {
  const recorded = await recordInteractions(caller, body.interactions, { batch: true });
  return {
    interactions: recorded.map(({ id, externalId, earlier }) => ({
      id,
      ...(externalId ? { externalId } : {}),
      ...(earlier ? { deduplicated: true as const } : {}),
    })),
  };
}

/**
 * Interactions the caller may read (RLS: HQ; managers and orchestrators; field agents their client's).
 * A conversation belongs to one agent: `conversationId` names the caller's own thread, or with
 * `agentId` that agent's; HQ staff, who have no thread of their own, name the agent.
 */
export async function listInteractions(caller: Caller, query: z.infer<typeof listInteractionsQuery>) {
  const { cursor: after, conversationId, ...filters } = query;
  let conversation: q.InteractionFilter["conversation"];
  if (conversationId !== undefined) {
    const agentId = query.agentId ?? (caller.type === "agent" ? caller.agentId : undefined);
    if (!agentId) throw new ApiError("validation_failed", "agentId: required with conversationId: a conversation belongs to one agent");
    conversation = { agentId, id: conversationId };
  }
  const { page, contacts } = await asCaller(caller, async (tx) => {
    const page = await q.listInteractions(tx, { ...filters, conversation, after });
    const ids = [...new Set(page.rows.map((r) => r.contactId).filter((id): id is string => id !== null))];
    return { page, contacts: await q.namedContacts(tx, { ids }) };
  });
  return { interactions: page.rows, nextCursor: page.last ? encodeSequenceCursor(page.last) : null, contacts };
}

/** Conversations the caller may read (RLS as for interactions), the most recently active first. */
export async function listConversations(caller: Caller, query: z.infer<typeof listConversationsQuery>) {
  const { cursor: after, ...filters } = query;
  const page = await asCaller(caller, (tx) => q.listConversations(tx, { ...filters, after }));
  return {
    conversations: page.rows,
    nextCursor: page.last ? encodeConversationCursor(page.last) : null,
  };
}
