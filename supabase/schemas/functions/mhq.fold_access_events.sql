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
