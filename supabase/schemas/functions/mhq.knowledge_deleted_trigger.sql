-- deleted entries' postings go by the foreign key; their statistics with them
create or replace function mhq.knowledge_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l)
    from (
      select t.lexeme, -1 as d, 0::float8 as l from gone g cross join lateral mhq.weighted_terms(g.fts) t
      union all
      select '', -1, -(select sum(t.tf) from mhq.weighted_terms(g.fts) t) from gone g
    ) x
   group by x.lexeme;
  return null;
end
$$;
