import "server-only";
import type { Queryable } from "@/lib/db";
import type { z } from "zod";
import type { AgentKind, AgentRole } from "@/lib/auth/caller";
import type { agentKeyView, agentListItemView, agentView } from "./contracts";
import { limitsInForce, type CustomLimits } from "./limits";

export type AgentRow = z.output<typeof agentView>;
type AgentListRow = z.output<typeof agentListItemView>;
/** A row as read: the agent's own limits (nulls: the defaults), made the limits in force by `view`. */
type Stored<T> = Omit<T, "limits"> & { customLimits: CustomLimits };

// clients are joined with a left join: RLS may hide a client row even where the agent is visible
const COLUMNS = `a.id, a.name, a.kind, a.role, a.kb_access as "kbAccess", a.client_id as "clientId",
         c.name as "clientName", a.description, a.disabled_at as "disabledAt",
         json_build_object('requestsPerSecond', a.rate_limit_per_second, 'burst', a.rate_limit_burst,
                           'maxWaiting', a.max_waiting_requests) as "customLimits",
         a.created_at as "createdAt", a.updated_at as "updatedAt"`;
const SELECT = `select ${COLUMNS} from agents a left join clients c on c.id = a.client_id`;

const view = <R extends { customLimits: CustomLimits }>({ customLimits, ...agent }: R) => ({ ...agent, limits: limitsInForce(customLimits) });

/**
 * Every visible agent with its last activity: the latest of a key's last use (touched at most once a
 * minute), a retrieval the agent made itself and a write the audit log records in its name. Keys,
 * the retrieval log and the audit log are HQ's to read (RLS), so other callers get nulls.
 */
export async function listAgents(tx: Queryable) {
  const rows = await tx.query<Stored<AgentListRow>>(
    `with activity as (
       select a.id, x.at, x.kind
         from agents a
         cross join lateral (
           select (select max(k.last_used_at) from agent_keys k where k.agent_id = a.id) as at, 'key' as kind
           union all
           select (select r.occurred_at from retrieval_log r
                    where r.agent_id = a.id and r.caller_type = 'agent' order by r.occurred_at desc limit 1), 'retrieval'
           union all
           select (select l.occurred_at from audit_log l
                    where l.actor_type = 'agent' and l.actor_id = a.id order by l.occurred_at desc limit 1), 'write'
         ) x
     ),
     latest as (
       select distinct on (id) id, at, kind from activity where at is not null order by id, at desc, kind
     )
     select ${COLUMNS}, l.at as "lastActiveAt", l.kind as "lastActivity"
       from agents a left join clients c on c.id = a.client_id left join latest l on l.id = a.id
      order by a.kind, a.name`,
  );
  return rows.map(view);
}

export async function getAgent(tx: Queryable, p: { id: string }) {
  const row = (await tx.query<Stored<AgentRow>>(`${SELECT} where a.id = $1`, [p.id]))[0];
  return row ? view(row) : null;
}

export async function insertAgent(
  tx: Queryable,
  p: { name: string; kind: AgentKind; role: AgentRole; kbAccess: string; clientId: string | null; description: string },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into agents (name, kind, role, kb_access, client_id, description)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [p.name, p.kind, p.role, p.kbAccess, p.clientId, p.description],
  );
  return rows[0]!.id;
}

export async function updateAgent(
  tx: Queryable,
  p: {
    id: string;
    name?: string;
    role?: AgentRole;
    kbAccess?: string;
    description?: string;
    disabled?: boolean;
    /** a limit given as null returns to the default; one left out stays as it is */
    limits?: Partial<CustomLimits>;
  },
) {
  const limit = (key: keyof CustomLimits) => [p.limits !== undefined && key in p.limits, p.limits?.[key] ?? null] as const;
  const rows = await tx.query<{ id: string }>(
    `update agents set
        name = coalesce($2, name),
        role = coalesce($3, role),
        kb_access = coalesce($4, kb_access),
        description = coalesce($5, description),
        disabled_at = case when $6::boolean is null then disabled_at
                           when $6::boolean then coalesce(disabled_at, now()) else null end,
        rate_limit_per_second = case when $7::boolean then $8::integer else rate_limit_per_second end,
        rate_limit_burst = case when $9::boolean then $10::integer else rate_limit_burst end,
        max_waiting_requests = case when $11::boolean then $12::integer else max_waiting_requests end
      where id = $1 returning id`,
    [
      p.id, p.name ?? null, p.role ?? null, p.kbAccess ?? null, p.description ?? null, p.disabled ?? null,
      ...limit("requestsPerSecond"), ...limit("burst"), ...limit("maxWaiting"),
    ],
  );
  return rows[0]?.id ?? null;
}

export async function nameTaken(tx: Queryable, p: { name: string; exceptId?: string }) {
  const rows = await tx.query("select 1 from agents where lower(name) = lower($1) and id <> coalesce($2::uuid, '00000000-0000-0000-0000-000000000000')", [
    p.name,
    p.exceptId ?? null,
  ]);
  return rows.length > 0;
}

export type KeyRow = z.output<typeof agentKeyView>;

export function listKeys(tx: Queryable, p: { agentId: string }) {
  return tx.query<KeyRow>(
    `select id, agent_id as "agentId", label, prefix, created_by_name as "createdByName",
            created_at as "createdAt", last_used_at as "lastUsedAt", revoked_at as "revokedAt"
       from agent_keys where agent_id = $1 order by created_at desc`,
    [p.agentId],
  );
}

export async function insertKey(
  tx: Queryable,
  p: { agentId: string; label: string; prefix: string; hash: string; createdByName: string },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into agent_keys (agent_id, label, prefix, key_hash, created_by_name)
     values ($1, $2, $3, $4, $5) returning id`,
    [p.agentId, p.label, p.prefix, p.hash, p.createdByName],
  );
  return rows[0]!.id;
}

export async function revokeKey(tx: Queryable, p: { agentId: string; keyId: string }) {
  const rows = await tx.query<{ id: string }>(
    `update agent_keys set revoked_at = coalesce(revoked_at, now())
      where id = $1 and agent_id = $2 returning id`,
    [p.keyId, p.agentId],
  );
  return rows[0]?.id ?? null;
}
