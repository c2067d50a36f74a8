import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { HqRole } from "./caller";
import type { hqUserView } from "./contracts";

export type HqUser = z.output<typeof hqUserView>;

// Runs as the caller (RLS: HQ only). Secret columns are not even granted to the caller role.
const COLUMNS = `id, email, name, role, (invite_expires_at is not null) as "invitePending",
  disabled_at as "disabledAt", last_login_at as "lastLoginAt", created_at as "createdAt"`;

export function listHqUsers(tx: Queryable) {
  return tx.query<HqUser>(`select ${COLUMNS} from hq_users order by created_at`);
}

export async function getHqUser(tx: Queryable, p: { id: string }) {
  return (await tx.query<HqUser>(`select ${COLUMNS} from hq_users where id = $1`, [p.id]))[0] ?? null;
}

export async function emailTaken(tx: Queryable, p: { email: string }) {
  return (await tx.query("select 1 from hq_users where lower(email) = lower($1)", [p.email])).length > 0;
}

export async function insertInvitedUser(
  tx: Queryable,
  p: { email: string; name: string; role: HqRole; inviteTokenHash: string; inviteHours: number },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into hq_users (email, name, role, invite_token_hash, invite_expires_at)
     values ($1, $2, $3, $4, now() + make_interval(hours => $5)) returning id`,
    [p.email, p.name, p.role, p.inviteTokenHash, p.inviteHours],
  );
  return rows[0]!.id;
}

export async function updateHqUser(tx: Queryable, p: { id: string; role?: HqRole; name?: string; disabled?: boolean }) {
  // disabling cancels an unaccepted invitation's link for good: enabling again does not revive it (the
  // user stays invited, and gets a new link from reissueInvite)
  const rows = await tx.query<{ id: string }>(
    `update hq_users set role = coalesce($2, role), name = coalesce($3, name),
            disabled_at = case when $4::boolean is null then disabled_at
                               when $4::boolean then coalesce(disabled_at, now()) else null end
      where id = $1 returning id`,
    [p.id, p.role ?? null, p.name ?? null, p.disabled ?? null],
  );
  // a statement of its own: the caller's role may write the token column, never read it (as a CASE would)
  if (p.disabled) await tx.query("update hq_users set invite_token_hash = null where id = $1", [p.id]);
  return rows[0]?.id ?? null;
}

/**
 * A new invitation link for a user still invited (never accepted) and not disabled, replacing the
 * earlier one; null when the user accepted already or is disabled.
 */
export async function reissueInvite(tx: Queryable, p: { id: string; inviteTokenHash: string; inviteHours: number }) {
  const rows = await tx.query<{ id: string }>(
    `update hq_users set invite_token_hash = $2, invite_expires_at = now() + make_interval(hours => $3)
      where id = $1 and invite_expires_at is not null and disabled_at is null returning id`,
    [p.id, p.inviteTokenHash, p.inviteHours],
  );
  return rows[0]?.id ?? null;
}

/** The id of the user holding `email` while still invited (never accepted), if any. */
export async function invitedUserId(tx: Queryable, p: { email: string }) {
  const rows = await tx.query<{ id: string }>("select id from hq_users where lower(email) = lower($1) and invite_expires_at is not null", [p.email]);
  return rows[0]?.id ?? null;
}

export async function countActiveAdmins(tx: Queryable) {
  const rows = await tx.query<{ n: number }>(
    "select count(*)::int as n from hq_users where role = 'admin' and disabled_at is null",
  );
  return rows[0]!.n;
}
