import "server-only";
import type { z } from "zod";
import type { agentKeyView, agentView } from "@/lib/agents/contracts";
import type { Queryable } from "@/lib/db";
import type { HqRole } from "./caller";
import type { hqUserView } from "./contracts";

type Agent = z.output<typeof agentView>;
type AgentKey = z.output<typeof agentKeyView>;
type HqUser = z.output<typeof hqUserView>;

// Sign-in lookups run as the system role: the caller is not known yet.

/**
 * A key with the prefix, live or not: its hash to compare, the agent it signs in, and whether the key was
 * revoked or its agent disabled (so a caller holding the whole key learns which).
 */
export type KeyCandidate = Pick<Agent, "name" | "kind" | "role" | "clientId" | "kbAccess"> &
  Pick<AgentKey, "agentId" | "lastUsedAt"> & {
    keyId: AgentKey["id"];
    keyHash: string;
    customLimits: Agent["limits"]["custom"];
    revoked: boolean;
    agentDisabled: boolean;
  };

export function findKeysByPrefix(tx: Queryable, p: { prefix: string }) {
  return tx.query<KeyCandidate>(
    `select k.id as "keyId", k.key_hash as "keyHash", a.id as "agentId", a.name, a.kind, a.role,
            a.client_id as "clientId", a.kb_access as "kbAccess", k.last_used_at as "lastUsedAt",
            json_build_object('requestsPerSecond', a.rate_limit_per_second, 'burst', a.rate_limit_burst,
                              'maxWaiting', a.max_waiting_requests) as "customLimits",
            k.revoked_at is not null as revoked, a.disabled_at is not null as "agentDisabled"
       from agent_keys k join agents a on a.id = k.agent_id
      where k.prefix = $1`,
    [p.prefix],
  );
}

export async function touchKey(tx: Queryable, p: { keyId: string }) {
  await tx.query("update agent_keys set last_used_at = now() where id = $1", [p.keyId]);
}

/** An HQ user with the password hash the view never shows (null: none set yet). */
export type HqUserRow = Pick<HqUser, "id" | "email" | "name" | "role" | "disabledAt"> & { passwordHash: string | null };

const HQ_USER_COLUMNS = `id, email, name, role, password_hash as "passwordHash", disabled_at as "disabledAt"`;

export async function findHqUserByEmail(tx: Queryable, p: { email: string }) {
  const rows = await tx.query<HqUserRow>(
    `select ${HQ_USER_COLUMNS} from hq_users where lower(email) = lower($1)`,
    [p.email],
  );
  return rows[0] ?? null;
}

export async function findHqUserByInvite(tx: Queryable, p: { tokenHash: string }) {
  const rows = await tx.query<HqUserRow>(
    `select ${HQ_USER_COLUMNS} from hq_users
      where invite_token_hash = $1 and invite_expires_at > now() and disabled_at is null`,
    [p.tokenHash],
  );
  return rows[0] ?? null;
}

export async function countHqUsers(tx: Queryable) {
  const rows = await tx.query<{ n: number }>("select count(*)::int as n from hq_users");
  return rows[0]!.n;
}

export async function insertHqUser(
  tx: Queryable,
  p: { email: string; name: string; role: HqRole; passwordHash: string },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into hq_users (email, name, role, password_hash) values ($1, $2, $3, $4) returning id`,
    [p.email, p.name, p.role, p.passwordHash],
  );
  return rows[0]!.id;
}

export async function setHqUserPassword(tx: Queryable, p: { id: string; passwordHash: string; name?: string }) {
  await tx.query(
    `update hq_users set password_hash = $2, name = coalesce($3, name),
            invite_token_hash = null, invite_expires_at = null
      where id = $1`,
    [p.id, p.passwordHash, p.name ?? null],
  );
}

export async function markHqLogin(tx: Queryable, p: { id: string }) {
  await tx.query("update hq_users set last_login_at = now() where id = $1", [p.id]);
}

export async function insertSession(
  tx: Queryable,
  p: { userId: string; tokenHash: string; userAgent: string; ttlHours: number },
) {
  await tx.query(
    `insert into hq_sessions (user_id, token_hash, user_agent, expires_at)
     values ($1, $2, $3, now() + make_interval(hours => $4))`,
    [p.userId, p.tokenHash, p.userAgent.slice(0, 300), p.ttlHours],
  );
}

export async function findSessionUser(tx: Queryable, p: { tokenHash: string }) {
  const rows = await tx.query<HqUserRow & { sessionId: string; lastSeenAt: Date }>(
    `select s.id as "sessionId", s.last_seen_at as "lastSeenAt", u.id, u.email, u.name, u.role,
            null as "passwordHash", u.disabled_at as "disabledAt"
       from hq_sessions s join hq_users u on u.id = s.user_id
      where s.token_hash = $1 and s.expires_at > now() and u.disabled_at is null`,
    [p.tokenHash],
  );
  return rows[0] ?? null;
}

export async function touchSession(tx: Queryable, p: { sessionId: string }) {
  await tx.query("update hq_sessions set last_seen_at = now() where id = $1", [p.sessionId]);
}

export async function deleteSession(tx: Queryable, p: { tokenHash: string }) {
  await tx.query("delete from hq_sessions where token_hash = $1", [p.tokenHash]);
}

export async function deleteSessionsOfUser(tx: Queryable, p: { userId: string }) {
  await tx.query("delete from hq_sessions where user_id = $1", [p.userId]);
}

// ── Supabase Auth sign-in (system: the caller is being established) ─────────────────────────────

export type SupabaseMappingRow = Pick<HqUser, "id" | "email" | "name" | "role" | "disabledAt"> & {
  /** has signed in before, or has a password: an established HQ user */
  active: boolean;
  /** an invitation that is still valid */
  inviteOpen: boolean;
};

export async function findHqUserForSupabase(tx: Queryable, p: { email: string }) {
  const rows = await tx.query<SupabaseMappingRow>(
    `select id, email, name, role, disabled_at as "disabledAt",
            (password_hash is not null or last_login_at is not null) as active,
            coalesce(invite_expires_at > now(), false) as "inviteOpen"
       from hq_users where lower(email) = lower($1)`,
    [p.email],
  );
  return rows[0] ?? null;
}

/** An HQ user for a Supabase user whose app_metadata grants a role; concurrent first requests agree. */
export async function insertSupabaseHqUser(tx: Queryable, p: { email: string; name: string; role: HqRole }) {
  const rows = await tx.query<{ id: string }>(
    `insert into hq_users (email, name, role) values ($1, $2, $3)
     on conflict ((lower(email))) do nothing returning id`,
    [p.email, p.name, p.role],
  );
  return rows[0]?.id ?? null;
}

/** The invitation is used up by the first Supabase sign-in with its address. */
export async function closeInvite(tx: Queryable, p: { id: string }) {
  await tx.query(
    `update hq_users set invite_token_hash = null, invite_expires_at = null, last_login_at = coalesce(last_login_at, now())
      where id = $1`,
    [p.id],
  );
}
