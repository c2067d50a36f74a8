import "server-only";
import type { Queryable } from "@/lib/db";
import type { ServerResponse } from "@/lib/http/contract";
import type { retrievalContracts } from "../contracts";

type Stats = ServerResponse<typeof retrievalContracts.stats>;

// The Dashboard's reads, as the HQ user (HQ reads every row; agents never call these).

export function retrievalsPerDay(tx: Queryable, p: { since: Date }) {
  return tx.query<{ day: string; level: string; n: number }>(
    `select to_char(date_trunc('day', occurred_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
            coalesce(level, 'none') as level, count(*)::int as n
       from retrieval_log
      where occurred_at > $1 and endpoint = 'retrieve' and caller_type = 'agent'
      group by 1, 2
      order by 1, 2`,
    [p.since],
  );
}

export async function retrievalTotals(tx: Queryable, p: { since: Date }) {
  const rows = await tx.query<Stats["totals"]>(
    `select count(*) filter (where endpoint = 'retrieve' and caller_type = 'agent')::int as retrievals,
            count(*) filter (where endpoint = 'context' and caller_type = 'agent')::int as "contextAssemblies",
            count(*) filter (where caller_type = 'hq')::int as "playgroundRuns",
            count(*) filter (where endpoint = 'retrieve' and caller_type = 'agent' and level <> 'none' and item_count = 0)::int
              as "emptyRetrievals",
            percentile_cont(0.5) within group (order by took_ms) filter (where endpoint = 'retrieve' and caller_type = 'agent') as "p50Ms",
            percentile_cont(0.95) within group (order by took_ms) filter (where endpoint = 'retrieve' and caller_type = 'agent') as "p95Ms",
            (avg(item_count) filter (where endpoint = 'retrieve' and caller_type = 'agent' and level <> 'none'))::float8 as "avgItems"
       from retrieval_log
      where occurred_at > $1`,
    [p.since],
  );
  return rows[0]!;
}

/** what knowledge actually gets retrieved (touch_knowledge counters). */
export function mostRetrievedKnowledge(tx: Queryable, p: { limit: number }) {
  return tx.query<Stats["knowledge"]["mostRetrieved"][number]>(
    `select id, title, category, accessed_count as "accessedCount", last_accessed_at as "lastAccessedAt"
       from knowledge_entries
      where status = 'published' and accessed_count > 0
      order by accessed_count desc, last_accessed_at desc nulls last, id
      limit $1`,
    [p.limit],
  );
}

/** …and what never does: published entries no agent has been served, oldest first. */
export async function neverRetrievedKnowledge(tx: Queryable, p: { limit: number }) {
  const rows = await tx.query<Stats["knowledge"]["neverRetrieved"][number] & { total: number }>(
    `select id, title, category, created_at as "createdAt", count(*) over ()::int as total
       from knowledge_entries
      where status = 'published' and accessed_count = 0
      order by created_at, id
      limit $1`,
    [p.limit],
  );
  return { total: rows[0]?.total ?? 0, entries: rows.map(({ total: _t, ...r }) => r) };
}

export async function pendingReviewCounts(tx: Queryable) {
  const rows = await tx.query<Stats["pendingReviews"]>(
    `select (select count(*) from memory_suggestions where status = 'pending')::int as suggestions,
            (select count(*) from playbook_updates where status = 'proposed')::int as "playbookUpdates"`,
  );
  return rows[0]!;
}

/** decisions nobody has scored yet, oldest first. */
export async function decisionsAwaitingOutcome(tx: Queryable, p: { limit: number }) {
  const rows = await tx.query<Stats["openItems"]["decisionsAwaitingOutcome"][number] & { total: number }>(
    `select m.id, m.title, m.agent_id as "agentId", a.name as "agentName", m.scope, m.created_at as "createdAt", count(*) over ()::int as total
       from memories m join agents a on a.id = m.agent_id
      where m.category = 'decision' and m.outcome is null and m.status = 'active'
      order by m.created_at, m.id
      limit $1`,
    [p.limit],
  );
  return { total: rows[0]?.total ?? 0, items: rows.map(({ total: _t, ...r }) => r) };
}

export function oldestPendingSuggestions(tx: Queryable, p: { limit: number }) {
  return tx.query<Stats["openItems"]["pendingSuggestions"][number]>(
    `select s.id, s.key, s.value, s.confidence, s.contact_id as "contactId", c.name as "contactName", s.proposed_by_name as "proposedByName",
            s.created_at as "createdAt"
       from memory_suggestions s left join contacts c on c.id = s.contact_id
      where s.status = 'pending'
      order by s.created_at, s.id
      limit $1`,
    [p.limit],
  );
}
