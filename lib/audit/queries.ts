import "server-only";
import { keysetPage } from "@/lib/db/keyset";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { auditEntryView } from "./contracts";
import type { listAuditQuery } from "./schemas";

/** Appends an audit entry in the caller's transaction; the actor is taken from the caller's claims. */
export async function recordAudit(
  tx: Queryable,
  p: { action: string; targetType?: string; targetId?: string | null; details?: unknown; clientId?: string | null },
) {
  // `::text::jsonb`, not `::jsonb`: postgres.js JSON-encodes a parameter it is told is jsonb, which
  // would store the JSON text as a string scalar; as text, both drivers pass it through verbatim
  await tx.query("select mhq.audit($1, $2, $3, $4::text::jsonb, $5)", [
    p.action,
    p.targetType ?? "",
    p.targetId ?? null,
    JSON.stringify(p.details ?? {}),
    p.clientId ?? null,
  ]);
}

/**
 * An entry as the list answers it: the view's resolved names (the target's current name, the agent
 * and client the entry concerns) are always present, null when there is none.
 */
export type AuditListEntry = Required<z.output<typeof auditEntryView>>;

/**
 * Newest first, keyset-paginated on (occurred_at, id): entries written in one transaction share
 * occurred_at, and a cursor keeps full microsecond precision, so paging never skips any. Target,
 * agent and client names are resolved here, as the caller may see them now. HQ users' emails and
 * agent keys' prefixes are left out (from target names and details) unless the caller is told to
 * see them: they are what only the user and key managers' own endpoints show.
 */
export async function listAudit(
  tx: Queryable,
  p: z.output<typeof listAuditQuery> & {
    /** show HQ users' email addresses (as targets' names and in details); only to who manages HQ users */
    revealEmails: boolean;
    /** show agent keys' prefixes in details; only to who manages keys */
    revealKeyPrefixes: boolean;
  },
) {
  const [cursorAt, cursorId] = p.cursor ? p.cursor.split("|") : [null, null];
  const rows = await tx.query<AuditListEntry & { cursor: string }>(
    `select a.id, a.occurred_at as "occurredAt", a.actor_type as "actorType", a.actor_id as "actorId",
            t.actor_name as "actorName", a.action, a.target_type as "targetType", a.target_id as "targetId",
            a.client_id as "clientId",
            case
              when a.target_type = 'hq_user' and not $10::boolean then a.details - 'email'
              when a.action like 'agent_key.%' and not $11::boolean then a.details - 'prefix'
              else a.details
            end as details,
            case a.target_type
              when 'agent' then (select name from agents where id = t.tid)
              when 'client' then (select name from clients where id = t.tid)
              when 'memory' then (select title from memories where id = t.tid)
              when 'knowledge_entry' then (select title from knowledge_entries where id = t.tid)
              when 'contact' then (select coalesce(name, 'Opted-out contact') from contacts where id = t.tid)
              when 'hq_user' then (select case when $10::boolean then coalesce(nullif(name, ''), email) else nullif(name, '') end
                                     from hq_users where id = t.tid)
              when 'mission' then (select title from missions where id = t.tid)
              when 'playbook_update' then (select title from playbook_updates where id = t.tid)
              when 'suggestion' then (select coalesce(c.name, 'Opted-out contact') || ' · ' || s.key
                                        from memory_suggestions s join contacts c on c.id = s.contact_id where s.id = t.tid)
              when 'locked_constant' then a.target_id
              when 'escalation' then (select question from escalations where id = t.tid)
            end as "targetName",
            t.agent_id as "agentId",
            (select name from agents where id = t.agent_id) as "agentName",
            (select name from clients where id = a.client_id) as "clientName",
            to_char(a.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || a.id as cursor
       from audit_log a
       cross join lateral (
         select case when a.target_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then a.target_id::uuid end as tid,
                case
                  when a.target_type = 'agent' and a.target_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then a.target_id::uuid
                  when a.details ->> 'agentId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (a.details ->> 'agentId')::uuid
                  when a.actor_type = 'agent' then a.actor_id
                end as agent_id,
                -- an HQ user without a display name acted under their email address: shown as their
                -- current name (or "HQ user") to whoever may not list HQ users' emails
                case
                  when a.actor_type = 'hq_user' and not $10::boolean
                   and exists (select 1 from hq_users u where u.id = a.actor_id and lower(u.email) = lower(a.actor_name))
                  then coalesce((select nullif(u.name, '') from hq_users u where u.id = a.actor_id), 'HQ user')
                  else a.actor_name
                end as actor_name
       ) t
      where ($1::timestamptz is null or a.occurred_at < $1::timestamptz)
        and ${FILTERS_SQL}
        and ($4::timestamptz is null or (a.occurred_at, a.id) < ($4::timestamptz, $5::uuid))
      order by a.occurred_at desc, a.id desc
      limit $3 + 1`,
    [
      p.before ?? null, p.action ?? null, p.limit, cursorAt ?? null, cursorId ?? null, p.actorType ?? null, p.actor ?? null,
      p.from ?? null, p.to ?? null, p.revealEmails, p.revealKeyPrefixes,
    ],
  );
  const page = keysetPage(rows, p.limit);
  return { entries: page.rows, nextCursor: page.nextCursor };
}

// $2 action prefixes (comma-separated), $6 actor type, $7 part of the actor's name as shown to the caller
// (so a hidden email cannot be probed through the filter), $8..$9 the time range
const FILTERS_SQL = `($2::text is null or exists (
            select 1 from unnest(string_to_array($2::text, ',')) as f(prefix)
             where a.action = f.prefix or a.action like f.prefix || '.%'))
        and ($6::text is null or a.actor_type = $6::text)
        and ($7::text is null or t.actor_name ilike '%' || replace(replace(replace($7::text, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
        and ($8::timestamptz is null or a.occurred_at >= $8::timestamptz)
        and ($9::timestamptz is null or a.occurred_at < $9::timestamptz)`;
