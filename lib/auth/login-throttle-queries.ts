import "server-only";
import type { Queryable } from "@/lib/db";

/**
 * Counts one attempt against each key (fixed windows: an ended window starts again at 1) and
 * answers every key's count and the seconds left in its window. One statement, rows upserted in key
 * order, so concurrent sign-ins on any number of instances lock rows in the same order and never
 * deadlock or lose a count.
 */
export function countAttempts(tx: Queryable, p: { keys: string[]; windowSeconds: number }) {
  return tx.query<{ key: string; attempts: number; retryAfter: number }>(
    `insert into login_throttle as t (key, attempts, window_ends)
     select k, 1, now() + make_interval(secs => $2) from unnest($1::text[]) as k order by k
     on conflict (key) do update set
       attempts = case when t.window_ends <= now() then 1 else t.attempts + 1 end,
       window_ends = case when t.window_ends <= now() then excluded.window_ends else t.window_ends end
     returning key, attempts, greatest(1, ceil(extract(epoch from window_ends - now())))::int as "retryAfter"`,
    [[...p.keys].sort(), p.windowSeconds],
  );
}

/** A successful sign-in: the account's failures are forgiven. */
export async function clearKey(tx: Queryable, p: { key: string }) {
  await tx.query("delete from login_throttle where key = $1", [p.key]);
}

/** A successful sign-in does not count against its address: one attempt is given back. */
export async function giveBackAttempt(tx: Queryable, p: { key: string }) {
  await tx.query("update login_throttle set attempts = greatest(attempts - 1, 0) where key = $1", [p.key]);
}

/**
 * Deletes up to `limit` windows that ended more than `graceSeconds` ago: old keys go away a few at a
 * time, and no live count is ever reset. Rows another sign-in holds are skipped.
 */
export async function sweepEnded(tx: Queryable, p: { limit: number; graceSeconds: number }) {
  await tx.query(
    `delete from login_throttle where key in (
       select key from login_throttle where window_ends < now() - make_interval(secs => $2)
        order by window_ends limit $1 for update skip locked)`,
    [p.limit, p.graceSeconds],
  );
}
