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

/**
 * Accesses of these items not yet folded into their counters (under the caller's RLS), with the
 * transaction's time (what an access recorded in this transaction is stamped with).
 */
export async function pendingAccess(tx: Queryable, p: { kind: AccessKind; ids: string[] }) {
  const pending = new Map<string, { count: number; at: Date }>();
  if (!p.ids.length) return { pending, now: null };
  const rows = await tx.query<{ id: string; count: number; at: Date | null; now: Date }>(
    `select i.id, coalesce(e.count, 0)::int as count, e.at, now() as now
       from unnest($2::uuid[]) as i (id)
       left join lateral (
         select count(*) as count, max(a.at) as at from access_events a where a.kind = $1 and a.item_id = i.id
       ) e on true`,
    [p.kind, p.ids],
  );
  for (const r of rows) if (r.count > 0 && r.at) pending.set(r.id, { count: r.count, at: new Date(r.at) });
  return { pending, now: rows[0] ? new Date(rows[0].now) : null };
}

/** Folds at most `limit` pending events into the counters (as the owner); returns how many. */
export async function foldAccessEvents(tx: Queryable, p: { limit: number }) {
  const rows = await tx.query<{ folded: number }>(`select mhq.fold_access_events($1) as folded`, [p.limit]);
  return rows[0]?.folded ?? 0;
}
