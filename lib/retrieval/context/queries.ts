import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { ServerResponse } from "@/lib/http/contract";
import type { memoryView } from "@/lib/memories/contracts";
import type { retrievalContracts } from "../contracts";

type Memory = z.output<typeof memoryView>;
type Briefing = ServerResponse<typeof retrievalContracts.briefing>;

// SQL of context assembly and the situational briefing, run as the agent being served (its
// claims, under RLS); tenancy is repeated in the WHERE clauses.

export type RecentMemory = Pick<Memory, "id" | "tier" | "category" | "title" | "content" | "occurredAt" | "createdAt">;

/** The agent's newest live memories (the "top 2 by recency"), on memories_owner_idx. */
export function listRecentMemories(tx: Queryable, p: { agentId: string; limit: number; asOf?: Date }) {
  return tx.query<RecentMemory>(
    `select id, tier, category, title, content, occurred_at as "occurredAt", created_at as "createdAt"
       from memories
      where agent_id = $1 and scope = 'agent' and status in ('active', 'resolved')
        and (expires_at is null or expires_at > coalesce($3::timestamptz, now()))
      order by created_at desc, id
      limit $2`,
    [p.agentId, p.limit, p.asOf ?? null],
  );
}

// the situational briefing

interface Window {
  since: Date;
  now: Date;
  /** a field agent's client: only its rows; null for internal agents */
  clientId: string | null;
  limit: number;
}

/** Events of every agent in the window (field agents: their client's). */
export function listRecentEvents(tx: Queryable, p: Window) {
  return tx.query<Briefing["events"][number]>(
    `select e.id, e.occurred_at as "occurredAt", a.name as "agentName", e.kind, e.outcome, e.summary
       from event_log e left join agents a on a.id = e.agent_id
      where e.occurred_at > $1 and e.occurred_at <= $2 and ($3::uuid is null or e.client_id = $3)
      order by e.occurred_at desc, e.id
      limit $4`,
    [p.since, p.now, p.clientId, p.limit],
  );
}

/** Missions in flight (planned, active, blocked), on missions_status_idx. */
export function listOpenMissions(tx: Queryable, p: { clientId: string | null; limit: number }) {
  return tx.query<Briefing["missions"][number]>(
    `select id, title, status, summary, updated_at as "updatedAt"
       from missions
      where status in ('active', 'blocked', 'planned') and ($1::uuid is null or client_id = $1)
      order by case status when 'active' then 0 when 'blocked' then 1 else 2 end, updated_at desc
      limit $2`,
    [p.clientId, p.limit],
  );
}

/** Conversations in the window the agent did not take part in. */
export function listOthersInteractions(tx: Queryable, p: Window & { agentId: string }) {
  return tx.query<Briefing["interactions"][number]>(
    `select i.id, i.occurred_at as "occurredAt", a.name as "agentName", i.channel, i.direction, i.speaker,
            left(i.content, 400) as excerpt
       from interactions i left join agents a on a.id = i.agent_id
      where i.agent_id <> $4 and i.occurred_at > $1 and i.occurred_at <= $2 and ($3::uuid is null or i.client_id = $3)
      order by i.occurred_at desc, i.seq desc
      limit $5`,
    [p.since, p.now, p.clientId, p.agentId, p.limit],
  );
}

/** Memory suggestions awaiting review (count and the newest few). */
export async function pendingSuggestions(tx: Queryable, p: { clientId: string | null; limit: number }) {
  const rows = await tx.query<Briefing["proposals"]["suggestions"]["items"][number] & { total: number }>(
    `select s.id, s.key, s.value, s.confidence, c.name as "contactName", s.proposed_by_name as "proposedByName",
            s.created_at as "createdAt", count(*) over () as total
       from memory_suggestions s left join contacts c on c.id = s.contact_id
      where s.status = 'pending' and ($1::uuid is null or s.client_id = $1)
      order by s.created_at desc, s.id
      limit $2`,
    [p.clientId, p.limit],
  );
  return { count: rows[0] ? Number(rows[0].total) : 0, items: rows.map(({ total: _t, ...r }) => r) };
}

/** Playbook updates awaiting review (count and the newest few). */
export async function proposedPlaybookUpdates(tx: Queryable, p: { clientId: string | null; limit: number }) {
  const rows = await tx.query<Briefing["proposals"]["playbookUpdates"]["items"][number] & { total: number }>(
    `select p.id, p.area, p.title, a.name as "agentName", p.created_at as "createdAt", count(*) over () as total
       from playbook_updates p left join agents a on a.id = p.agent_id
      where p.status = 'proposed' and ($1::uuid is null or p.client_id = $1)
      order by p.created_at desc, p.id
      limit $2`,
    [p.clientId, p.limit],
  );
  return { count: rows[0] ? Number(rows[0].total) : 0, items: rows.map(({ total: _t, ...r }) => r) };
}
