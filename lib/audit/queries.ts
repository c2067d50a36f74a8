import "server-only";
import type { Queryable } from "@/lib/db";

export interface AuditEntry {
  id: string;
  occurredAt: Date;
  actorType: string;
  actorId: string | null;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string | null;
  clientId: string | null;
  details: Record<string, unknown>;
}

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
 * Newest first, keyset-paginated on (occurred_at, id): entries written in one transaction share
 * occurred_at, and a cursor keeps full microsecond precision, so paging never skips any.
 */
export async function listAudit(tx: Queryable, p: { limit: number; before?: string; cursor?: string; action?: string }) {
  const [cursorAt, cursorId] = p.cursor ? p.cursor.split("|") : [null, null];
  const rows = await tx.query<AuditEntry & { cursor: string }>(
    `select id, occurred_at as "occurredAt", actor_type as "actorType", actor_id as "actorId",
            actor_name as "actorName", action, target_type as "targetType", target_id as "targetId",
            client_id as "clientId", details,
            to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || id as cursor
       from audit_log
      where ($1::timestamptz is null or occurred_at < $1::timestamptz)
        and ($2::text is null or action = $2 or action like $2 || '.%')
        and ($4::timestamptz is null or (occurred_at, id) < ($4::timestamptz, $5::uuid))
      order by occurred_at desc, id desc
      limit $3`,
    [p.before ?? null, p.action ?? null, p.limit, cursorAt ?? null, cursorId ?? null],
  );
  const nextCursor = rows.length === p.limit ? rows[rows.length - 1]!.cursor : null;
  return { entries: rows.map(({ cursor: _cursor, ...entry }) => entry), nextCursor };
}
