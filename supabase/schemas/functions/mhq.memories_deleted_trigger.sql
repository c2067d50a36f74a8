create or replace function mhq.memories_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l)
    from (
      select case when g.scope = 'team' then mhq.nil_uuid() else g.agent_id end as corpus_id, t.lexeme, -1 as d, 0::float8 as l
        from gone g cross join lateral mhq.weighted_terms(g.fts) t
       where g.status = 'active' or (g.scope = 'agent' and g.status = 'resolved')
      union all
      select case when g.scope = 'team' then mhq.nil_uuid() else g.agent_id end, '', -1, -(select sum(t.tf) from mhq.weighted_terms(g.fts) t)
        from gone g
       where g.status = 'active' or (g.scope = 'agent' and g.status = 'resolved')
    ) x
   group by x.corpus_id, x.lexeme;
  return null;
end
$$;
