-- ── access counting: one path for every kind of item ────────────────────────────────────────────
-- seed 004 tracks what is actually used: accessed_count / last_accessed_at of memories and
-- knowledge entries. Every access (a retrieval serving an item, an agent reading a memory, a
-- knowledge search serving an entry) is one INSERT into access_events inside the request's own
-- transaction: inserts touch no shared row, so concurrent requests never wait for each other or
-- deadlock on a popular item, and an access is stored exactly when the request that made it commits.
-- mhq.fold_access_events adds pending events into the counters in small batches (any number of app
-- instances may run it at once: each takes events the others have not locked, and locks the
-- counted rows in id order). A crash loses nothing: unfolded events stay in the table.

create table access_events (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('memory', 'knowledge')),
  item_id uuid not null,
  at timestamptz not null default now()
);
-- serves: the pending count of the items a response shows (mhq.pending_access and the reads below)
create index access_events_item_idx on access_events (item_id);

alter table access_events enable row level security;
-- callers name the item; the id and the time are the database's
grant select on access_events to mhq_app;
grant insert (kind, item_id) on access_events to mhq_app;
-- Only agents' accesses count (HQ browsing is curation, not use), and only of items the agent can
-- read itself: the subqueries run under the caller's own policies on memories/knowledge_entries.
create policy access_events_insert on access_events for insert to mhq_app
  with check (
    (select mhq.is_agent()) and case kind
      when 'memory' then exists (select 1 from memories m where m.id = item_id)
      else exists (select 1 from knowledge_entries k where k.id = item_id and k.status = 'published')
    end
  );
-- pending accesses are visible exactly when the item is
create policy access_events_select on access_events for select to mhq_app
  using (
    case kind
      when 'memory' then exists (select 1 from memories m where m.id = item_id)
      else exists (select 1 from knowledge_entries k where k.id = item_id)
    end
  );
-- no update or delete for callers: only the fold (as the owner) removes events

-- Folds at most p_limit pending events into the counters; returns how many it folded. Safe to run
-- from several connections at once: `skip locked` hands each caller different events, and the
-- counted rows are locked in id order (memories, then knowledge entries) so two folds — or a fold
-- and a request updating several of the same rows in the same order — never deadlock.
create or replace function mhq.fold_access_events(p_limit integer)
returns integer
language plpgsql volatile set search_path = public, pg_temp as $$
declare
  folded integer;
  m_ids uuid[]; m_n integer[]; m_at timestamptz[];
  k_ids uuid[]; k_n integer[]; k_at timestamptz[];
begin
  with batch as (
    select e.id from access_events e order by e.id limit p_limit for update skip locked
  ), gone as (
    delete from access_events e using batch b where e.id = b.id returning e.kind, e.item_id, e.at
  ), totals as (
    select g.kind, g.item_id, count(*)::integer as n, max(g.at) as at from gone g group by g.kind, g.item_id
  )
  select coalesce(sum(t.n), 0)::integer,
         array_agg(t.item_id order by t.item_id) filter (where t.kind = 'memory'),
         array_agg(t.n order by t.item_id) filter (where t.kind = 'memory'),
         array_agg(t.at order by t.item_id) filter (where t.kind = 'memory'),
         array_agg(t.item_id order by t.item_id) filter (where t.kind = 'knowledge'),
         array_agg(t.n order by t.item_id) filter (where t.kind = 'knowledge'),
         array_agg(t.at order by t.item_id) filter (where t.kind = 'knowledge')
    into folded, m_ids, m_n, m_at, k_ids, k_n, k_at
    from totals t;

  if m_ids is not null then
    perform 1 from memories m where m.id = any (m_ids) order by m.id for no key update;
    update memories m
       set accessed_count = m.accessed_count + t.n, last_accessed_at = greatest(m.last_accessed_at, t.at)
      from unnest(m_ids, m_n, m_at) as t (id, n, at)
     where m.id = t.id;
  end if;
  if k_ids is not null then
    perform 1 from knowledge_entries k where k.id = any (k_ids) order by k.id for no key update;
    update knowledge_entries k
       set accessed_count = k.accessed_count + t.n, last_accessed_at = greatest(k.last_accessed_at, t.at)
      from unnest(k_ids, k_n, k_at) as t (id, n, at)
     where k.id = t.id;
  end if;
  return folded;
end
$$;
revoke all on function mhq.fold_access_events(integer) from public;

-- The counters moved to access_events: this updated the same rows in whatever order each search
-- listed them, so two concurrent searches could deadlock on a real server.
drop function if exists mhq.touch_knowledge(uuid[]);
