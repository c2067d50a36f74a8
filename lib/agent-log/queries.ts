import "server-only";
import type { Queryable } from "@/lib/db";
import type { z } from "zod";
import type { eventView, noteView, playbookUpdateView } from "./contracts";

// Row visibility (the author; managers and orchestrators in scope; HQ) and note expiry are
// enforced by RLS: a query here never sees an expired note or another client's rows.

export type NoteRow = z.output<typeof noteView>;

const NOTE_SELECT = `
  select n.id, n.agent_id as "agentId", a.name as "agentName", n.client_id as "clientId", n.contact_id as "contactId",
         n.content, n.created_at as "createdAt", n.expires_at as "expiresAt"
    from agent_notes n left join agents a on a.id = n.agent_id`;

export async function insertNote(tx: Queryable, p: { agentId: string; clientId: string | null; contactId: string | null; content: string }) {
  const rows = await tx.query<{ id: string }>(
    `insert into agent_notes (agent_id, client_id, contact_id, content) values ($1, $2, $3, $4) returning id`,
    [p.agentId, p.clientId, p.contactId, p.content],
  );
  return (await tx.query<NoteRow>(`${NOTE_SELECT} where n.id = $1`, [rows[0]!.id]))[0]!;
}

export function listNotes(tx: Queryable, p: { agentId?: string; contactId?: string; limit: number }) {
  return tx.query<NoteRow>(
    `${NOTE_SELECT}
      where ($1::uuid is null or n.agent_id = $1) and ($2::uuid is null or n.contact_id = $2)
      order by n.created_at desc limit $3`,
    [p.agentId ?? null, p.contactId ?? null, p.limit],
  );
}

/**
 * Deletes notes past their expiry in id order, at most `limit` of them (all by default) and only
 * those after `after` (from the first by default); answers how many and the last id deleted.
 */
export async function purgeExpiredNotes(tx: Queryable, p: { now?: string; limit?: number | null; after?: string | null }) {
  const rows = await tx.query<{ deleted: number; lastId: string | null }>(
    `select deleted, last_id as "lastId" from mhq.purge_expired_agent_notes(coalesce($1::timestamptz, now()), $2::integer, $3::uuid)`,
    [p.now ?? null, p.limit ?? null, p.after ?? null],
  );
  return { deleted: Number(rows[0]!.deleted), lastId: rows[0]!.lastId };
}

export type EventRow = z.output<typeof eventView>;

const EVENT_SELECT = `
  select e.id, e.agent_id as "agentId", a.name as "agentName", e.client_id as "clientId", e.contact_id as "contactId",
         e.kind, e.outcome, e.summary, e.payload, e.occurred_at as "occurredAt"
    from event_log e left join agents a on a.id = e.agent_id`;

export async function insertEvent(
  tx: Queryable,
  p: { agentId: string; clientId: string | null; contactId: string | null; kind: string; outcome: string; summary: string; payload: unknown; occurredAt: string | null },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into event_log (agent_id, client_id, contact_id, kind, outcome, summary, payload, occurred_at)
     values ($1, $2, $3, $4, $5, $6, $7::text::jsonb, coalesce($8::timestamptz, now())) returning id`,
    [p.agentId, p.clientId, p.contactId, p.kind, p.outcome, p.summary, JSON.stringify(p.payload ?? {}), p.occurredAt],
  );
  return (await tx.query<EventRow>(`${EVENT_SELECT} where e.id = $1`, [rows[0]!.id]))[0]!;
}

export function listEvents(tx: Queryable, p: { kind?: string; outcome?: string; agentId?: string; since?: string; limit: number }) {
  return tx.query<EventRow>(
    `${EVENT_SELECT}
      where ($1::text is null or e.kind = $1 or e.kind like $1 || '.%')
        and ($2::text is null or e.outcome = $2)
        and ($3::uuid is null or e.agent_id = $3)
        and ($4::timestamptz is null or e.occurred_at >= $4::timestamptz)
      order by e.occurred_at desc limit $5`,
    [p.kind ?? null, p.outcome ?? null, p.agentId ?? null, p.since ?? null, p.limit],
  );
}

export type PlaybookUpdateRow = z.output<typeof playbookUpdateView>;

const PLAYBOOK_SELECT = `
  select p.id, p.agent_id as "agentId", a.name as "agentName", p.client_id as "clientId", p.area, p.title, p.content,
         p.status, p.review_note as "reviewNote", p.reviewed_by_name as "reviewedByName", p.reviewed_at as "reviewedAt",
         p.created_at as "createdAt"
    from playbook_updates p left join agents a on a.id = p.agent_id`;

export async function insertPlaybookUpdate(
  tx: Queryable,
  p: { agentId: string; clientId: string | null; area: string; title: string; content: string },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into playbook_updates (agent_id, client_id, area, title, content) values ($1, $2, $3, $4, $5) returning id`,
    [p.agentId, p.clientId, p.area, p.title, p.content],
  );
  return (await getPlaybookUpdate(tx, { id: rows[0]!.id }))!;
}

export async function getPlaybookUpdate(tx: Queryable, p: { id: string }) {
  return (await tx.query<PlaybookUpdateRow>(`${PLAYBOOK_SELECT} where p.id = $1`, [p.id]))[0] ?? null;
}

export function listPlaybookUpdates(tx: Queryable, p: { status?: string; area?: string; limit: number }) {
  return tx.query<PlaybookUpdateRow>(
    `${PLAYBOOK_SELECT}
      where ($1::text is null or p.status = $1) and ($2::text is null or p.area = $2)
      order by p.created_at desc limit $3`,
    [p.status ?? null, p.area ?? null, p.limit],
  );
}

/** Conditional on `status = 'proposed'`: a second decision on the same update changes nothing. */
export async function decidePlaybookUpdate(tx: Queryable, p: { id: string; status: "accepted" | "rejected"; note: string | null }) {
  const rows = await tx.query<{ id: string }>(
    `update playbook_updates
        set status = $2, review_note = $3, reviewed_by_name = mhq.current_actor_name(), reviewed_at = now()
      where id = $1 and status = 'proposed' returning id`,
    [p.id, p.status, p.note],
  );
  return rows.length > 0;
}
