import type { Queryable } from "@/lib/db";

// ── access tracking (what is actually used) ─────────────────────────────────────────────
// One path for every kind of item: an access is a row of access_events written in the request's own
// transaction (under the caller's RLS: agents only, items they can read), folded into the items'
// accessed_count / last_accessed_at by mhq.fold_access_events.

export type AccessKind = "memory" | "knowledge";

/** Records one access to each id (duplicates count twice), as the calling agent, in one call. */
export async function insertAccessEvents(tx: Queryable, p: { memories: string[]; knowledge: string[] }) {
  if (!p.memories.length && !p.knowledge.length) return;
  await tx.query(`select mhq.record_access($1::uuid[], $2::uuid[])`, [p.memories, p.knowledge]);
}

/** Accesses of these items not yet folded into their counters (under the caller's RLS). */
export async function pendingAccess(tx: Queryable, p: { kind: AccessKind; ids: string[] }) {
  if (!p.ids.length) return new Map<string, { count: number; at: Date }>();
  const rows = await tx.query<{ id: string; count: number; at: Date }>(
    `select item_id as id, count(*)::int as count, max(at) as at
       from access_events where kind = $1 and item_id = any ($2::uuid[])
      group by item_id`,
    [p.kind, p.ids],
  );
  return new Map(rows.map((r) => [r.id, { count: r.count, at: new Date(r.at) }]));
}

/** Folds at most `limit` pending events into the counters (as the owner); returns how many. */
export async function foldAccessEvents(tx: Queryable, p: { limit: number }) {
  const rows = await tx.query<{ folded: number }>(`select mhq.fold_access_events($1) as folded`, [p.limit]);
  return rows[0]?.folded ?? 0;
}
