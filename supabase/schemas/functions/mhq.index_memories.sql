-- The same for memories: postings for the searchable ones, statistics per corpus.
create or replace function mhq.index_memories(ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
begin
  -- two statements: the new postings may hold the keys of the old ones
  with gone as (
    delete from memory_postings p where p.memory_id = any (ids)
    returning p.memory_id, p.corpus_id, p.lexeme, p.len
  ),
  deltas as (
    select g.corpus_id, g.lexeme, -1 as d, 0::float8 as l from gone g
    union all select g.corpus_id, '', -1, -max(g.len) from gone g group by g.memory_id, g.corpus_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.corpus_id, x.lexeme;

  with fresh as (
    insert into memory_postings (memory_id, lexeme, corpus_id, agent_id, scope, tf, len)
    select m.id, t.lexeme, case when m.scope = 'team' then mhq.nil_uuid() else m.agent_id end, m.agent_id, m.scope,
           t.tf, sum(t.tf) over (partition by m.id)
      from memories m cross join lateral mhq.weighted_terms(m.fts) t
     where m.id = any (ids) and (m.status = 'active' or (m.scope = 'agent' and m.status = 'resolved'))
    returning memory_id, corpus_id, lexeme, len
  ),
  deltas as (
    select f.corpus_id, f.lexeme, 1 as d, 0::float8 as l from fresh f
    union all select f.corpus_id, '', 1, max(f.len) from fresh f group by f.memory_id, f.corpus_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.corpus_id, x.lexeme;
end
$$;

revoke all on function mhq.index_memories(uuid[]) from public;
