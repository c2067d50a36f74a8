-- How many searchable memories a corpus holds: BM25's document count (see ../README.md).
create or replace function mhq.memory_corpus_size(memory_scope text, owner_id uuid)
returns float8
language plpgsql stable security definer
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
as $$
declare
  corpus_key uuid := case when memory_scope = 'agent' then owner_id else mhq.nil_uuid() end;
  total float8;
begin
  if not (mhq.is_hq()
          or (memory_scope = 'agent' and mhq.is_agent() and owner_id = mhq.agent_id())
          or (memory_scope = 'team' and mhq.is_internal_agent())) then
    return 0;
  end if;
  select coalesce(sum(u.df), 0)::float8 into total
    from (
      select s.df::float8 as df from search_term_stats s where s.corpus = 'memories' and s.corpus_id = corpus_key and s.lexeme = ''
      union all
      select l.df_delta from search_stats_log l where l.corpus = 'memories' and l.corpus_id = corpus_key and l.lexeme = ''
    ) u;
  return total;
end
$$;

revoke all on function mhq.memory_corpus_size(text, uuid) from public;
grant execute on function mhq.memory_corpus_size(text, uuid) to mhq_app;
