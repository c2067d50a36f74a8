-- (Re)writes the postings of these entries, and logs what that changes in the statistics of the
-- knowledge base (all its entries: curators search archived ones too; agents' searches pick among
-- the published postings only).
create or replace function mhq.index_knowledge(ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
begin
  -- two statements: the new postings may hold the keys of the old ones
  with gone as (
    delete from knowledge_postings p where p.entry_id = any (ids)
    returning p.entry_id, p.lexeme, p.published, p.len
  ),
  deltas as (
    select g.lexeme, -1 as d, 0::float8 as l from gone g
    union all select '', -1, -max(g.len) from gone g group by g.entry_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.lexeme;

  with fresh as (
    insert into knowledge_postings (entry_id, lexeme, published, tf, len)
    select k.id, t.lexeme, k.status = 'published', t.tf, sum(t.tf) over (partition by k.id)
      from knowledge_entries k cross join lateral mhq.weighted_terms(k.fts) t
     where k.id = any (ids)
    returning entry_id, lexeme, published, len
  ),
  deltas as (
    select f.lexeme, 1 as d, 0::float8 as l from fresh f
    union all select '', 1, max(f.len) from fresh f group by f.entry_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.lexeme;
end
$$;

revoke all on function mhq.index_knowledge(uuid[]) from public;
