-- An agent's documents (a handful per agent), ranked exactly: BM25 and cosine fused by weighted
-- scores (see ../README.md, "Fusion").
create or replace function public.search_documents(
  query_text text,
  query_embedding vector(1536),
  query_model text,
  match_count int,
  owner_id uuid,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0
)
returns table (
  id uuid,
  agent_id uuid,
  type text,
  doc_date date,
  content text,
  updated_at timestamptz,
  created_at timestamptz,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql stable security invoker
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
  with docs as (
    select d.id, d.fts, case when query_embedding is not null and d.embedding_model = query_model
                             then 1 - (d.embedding <=> query_embedding) end as sim
      from agent_documents d
     where d.agent_id = owner_id and d.content <> ''
  ),
  q as (select distinct t.lexeme from unnest(to_tsvector('english', coalesce(query_text, ''))) t),
  corpus as (select count(*)::float8 as n, greatest(avg(length(d.fts)), 1)::float8 as avg_len from docs d),
  tfs as (
    select d.id, t.lexeme, coalesce(array_length(t.positions, 1), 1)::float8 as tf, length(d.fts)::float8 as len
      from docs d cross join lateral unnest(d.fts) t
     where t.lexeme in (select q.lexeme from q)
  ),
  idf as (
    select t.lexeme, ln(1 + (corpus.n - count(*) + 0.5) / (count(*) + 0.5)) as idf
      from tfs t, corpus group by t.lexeme, corpus.n
  ),
  lex as (
    select t.id, sum(i.idf * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * t.len / corpus.avg_len))) as bm25, sum(i.idf) as matched
      from tfs t join idf i on i.lexeme = t.lexeme, corpus
     group by t.id
  ),
  total as (
    -- every query lexeme's IDF, those no document holds at their highest
    select sum(coalesce(i.idf, ln(1 + (corpus.n + 0.5) / 0.5))) as idf
      from q left join idf i on i.lexeme = q.lexeme, corpus
  ),
  ranked as (
    select d.id, lex.bm25, lex.matched, d.sim,
           case when lex.id is not null then row_number() over (order by lex.bm25 desc nulls last, d.id) end as lex_rank,
           case when d.sim >= min_similarity then row_number() over (order by d.sim desc nulls last, d.id) end as vec_rank,
           max(lex.bm25) over () as best
      from docs d left join lex on lex.id = d.id
  )
  select x.id, x.agent_id, x.type, x.doc_date, x.content, x.updated_at, x.created_at,
         (lexical_weight * coalesce(r.bm25 / nullif(r.best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(r.best, 0), 0)::float8,
         coalesce(r.matched / nullif(total.idf, 0), 0)::float8,
         r.sim::float8, r.lex_rank, r.vec_rank
    from ranked r join agent_documents x on x.id = r.id, total
   where r.lex_rank is not null or r.vec_rank is not null
   order by 8 desc, r.id
   limit match_count;
end
$$;

revoke all on function public.search_documents(text, vector, text, integer, uuid, double precision, double precision) from public;
grant execute on function public.search_documents(text, vector, text, integer, uuid, double precision, double precision) to mhq_app;
