import "server-only";
import type { Queryable } from "@/lib/db";

/** How an agent's turns hold caller message ids (mhq.interaction_external_id_holders). */
export interface ExternalIdHolder {
  externalId: string;
  id: string | null;
  state: "stored" | "staging" | "abandoned";
}

/** The calling agent's turns and batches holding any of these message ids. */
export function externalIdHolders(tx: Queryable, p: { externalIds: string[] }) {
  return tx.query<ExternalIdHolder>(
    `select external_id as "externalId", id, state from mhq.interaction_external_id_holders($1::text[])`,
    [p.externalIds],
  );
}

/** A new batch of the calling agent, 'staging' until `leaseMs` from now unless renewed. */
export async function createBatch(tx: Queryable, p: { agentId: string; turns: number; externalIds: string[]; leaseMs: number }) {
  const [row] = await tx.query<{ id: string }>(
    `insert into interaction_batches (agent_id, turns, external_ids, lease_until)
     values ($1, $2, $3::text[], now() + $4 * interval '1 millisecond')
     returning id`,
    [p.agentId, p.turns, p.externalIds, p.leaseMs],
  );
  return row!.id;
}

/** Renews the lease of the caller's batch; false when it is no longer being stored (given up). */
export async function renewBatch(tx: Queryable, p: { id: string; leaseMs: number }) {
  const rows = await tx.query<{ id: string }>(
    `update interaction_batches set lease_until = now() + $2 * interval '1 millisecond'
      where id = $1 and state = 'staging'
      returning id`,
    [p.id, p.leaseMs],
  );
  return rows.length > 0;
}

/** Gives up batches still 'staging' past their lease: of one agent (as that agent), or all (the janitor). */
export async function expireBatches(tx: Queryable, p: { agentId?: string } = {}) {
  const rows = await tx.query<{ id: string }>(
    `update interaction_batches set state = 'abandoned'
      where id in (select id from interaction_batches
                    where state = 'staging' and lease_until < now() and ($1::uuid is null or agent_id = $1)
                    order by id for update)
      returning id`,
    [p.agentId ?? null],
  );
  return rows.length;
}

/** Whether the caller's batch is still being stored, locking its row for the rest of the step. */
export async function lockStagingBatch(tx: Queryable, p: { id: string }) {
  const rows = await tx.query(`select 1 from interaction_batches where id = $1 and state = 'staging' for update`, [p.id]);
  return rows.length > 0;
}

/** Gives up one batch (a step failed): its turns stay hidden and are deleted by the janitor. */
export async function abandonBatch(tx: Queryable, p: { id: string }) {
  await tx.query(`update interaction_batches set state = 'abandoned' where id = $1 and state = 'staging'`, [p.id]);
}

/** Indexes turns of the caller's batch (one step). */
export async function indexBatchTurns(tx: Queryable, p: { batchId: string; ids: string[] }) {
  await tx.query(`select mhq.index_interaction_batch($1, $2::uuid[])`, [p.batchId, p.ids]);
}

/** Makes the caller's batch visible (refused if a contact it names opted out); the number of turns published. */
export async function publishBatch(tx: Queryable, p: { batchId: string; contactIds: string[] }) {
  const [row] = await tx.query<{ n: number }>(`select mhq.publish_interaction_batch($1, $2::uuid[]) as n`, [p.batchId, p.contactIds]);
  return Number(row?.n ?? 0);
}

// ── the janitor's (the owning role's) ────────────────────────────────────────────────────────────

/**
 * At the start of the one process that serves the embedded database: every batch still 'staging'
 * is given up, and every published one is left to the janitor at once (no process is finishing it):
 * its lease ends at '-infinity', before any `now()` the janitor compares it with (the embedded
 * database's clock counts whole milliseconds, so a lease ending "now" may not have ended yet in the
 * janitor's next statement).
 */
export async function releaseBatchesOfStoppedProcess(db: Queryable) {
  await db.query(`update interaction_batches set state = 'abandoned' where state = 'staging'`);
  await db.query(`update interaction_batches set lease_until = '-infinity' where state = 'published'`);
}

/**
 * Batches whose rest of the work is the janitor's: given up, or published with their seams not yet
 * indexed by a process whose lease ran out (the lease of a published batch is the one its last step
 * renewed).
 */
export function leftoverBatches(tx: Queryable) {
  return tx.query<{ id: string; state: "published" | "abandoned" }>(
    `select id, state from interaction_batches
      where state = 'abandoned' or (state = 'published' and lease_until < now())
      order by created_at`,
  );
}

/**
 * Deletes up to `limit` turns of a batch given up (in id order); the number deleted. Their words
 * leave the statistics at the next refresh (mhq.interactions_deleted_trigger).
 */
export async function deleteBatchTurns(tx: Queryable, p: { batchId: string; limit: number }) {
  const [, rows] = await Promise.all([
    tx.query(`select set_config('mhq.discarding_batch', 'on', true)`),
    tx.query<{ id: string }>(
      `delete from interactions
        where id in (select id from interactions where batch_id = $1 order by id limit $2 for update)
        returning id`,
      [p.batchId, p.limit],
    ),
  ]);
  return rows.length;
}

/** Removes a batch's row once nothing of it is left to do. */
export async function deleteBatch(tx: Queryable, p: { id: string }) {
  await tx.query(`delete from interaction_batches where id = $1`, [p.id]);
}

/** A batch's turns in conversation order (the janitor finishing a published batch). */
export async function batchTurns(tx: Queryable, p: { batchId: string }) {
  return (await tx.query<{ id: string }>(`select id from interactions where batch_id = $1 order by occurred_at, seq`, [p.batchId])).map((r) => r.id);
}

/** Of these turns of a published batch, where it meets the rest of its conversations (mhq.interaction_batch_seams). */
export async function batchSeams(tx: Queryable, p: { batchId: string; ids: string[] }) {
  const [row] = await tx.query<{ ids: string[] }>(`select mhq.interaction_batch_seams($1, $2::uuid[]) as ids`, [p.batchId, p.ids]);
  return row?.ids ?? [];
}

/** These turns and the two on each side of each, in conversation order (mhq.interactions_around). */
export async function turnsAround(tx: Queryable, p: { ids: string[] }) {
  const [row] = await tx.query<{ ids: string[] }>(`select mhq.interactions_around($1::uuid[]) as ids`, [p.ids]);
  return row?.ids ?? [];
}

/** Turns in conversation order. */
export async function inConversationOrder(tx: Queryable, p: { ids: string[] }) {
  return (await tx.query<{ id: string }>(`select id from interactions where id = any($1::uuid[]) order by occurred_at, seq`, [p.ids])).map((r) => r.id);
}

/**
 * Indexes visible turns again (the surroundings of a published batch), taking their conversations'
 * locks in key order as every write to a conversation does (mhq.interactions_index_added).
 */
export async function reindexTurns(tx: Queryable, p: { ids: string[] }) {
  await tx.query(
    `select pg_advisory_xact_lock(hashtext('mhq.conversation'), k.key)
       from (select distinct mhq.conversation_lock_key(i.agent_id, i.channel, i.contact_id, i.client_id, i.conversation_key) as key
               from interactions i where i.id = any($1::uuid[])) k
      order by k.key`,
    [p.ids],
  );
  await tx.query(`select mhq.index_interactions($1::uuid[])`, [p.ids]);
}
