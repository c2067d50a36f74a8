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
  await tx.query("select mhq.audit($1, $2, $3, $4::jsonb, $5)", [
    p.action,
    p.targetType ?? "",
    p.targetId ?? null,
    JSON.stringify(p.details ?? {}),
    p.clientId ?? null,
  ]);
}

export function listAudit(tx: Queryable, p: { limit: number; before?: string; action?: string }) {
  return tx.query<AuditEntry>(
    `select id, occurred_at as "occurredAt", actor_type as "actorType", actor_id as "actorId",
            actor_name as "actorName", action, target_type as "targetType", target_id as "targetId",
            client_id as "clientId", details
       from audit_log
      where ($1::timestamptz is null or occurred_at < $1::timestamptz)
        and ($2::text is null or action = $2 or action like $2 || '.%')
      order by occurred_at desc
      limit $3`,
    [p.before ?? null, p.action ?? null, p.limit],
  );
}
