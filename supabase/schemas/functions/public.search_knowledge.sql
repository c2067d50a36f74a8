-- The knowledge base, for curators and agents alike.
create or replace function public.search_knowledge(
  query_text text,
  query_embedding vector,
  query_model text,
  match_count int,
  category_filter text default null,
  tag_filter text[] default null,
  include_archived boolean default false,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0,
  exact_scan_max int default 1000
)
returns table (
  id uuid,
  title text,
  content text,
  category text,
  tags text[],
  version int,
  status text,
  created_by text,
  updated_by text,
  created_at timestamptz,
  updated_at timestamptz,
  accessed_count int,
  last_accessed_at timestamptz,
  has_embedding boolean,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql volatile security invoker
set enable_seqscan = on
set enable_bitmapscan = on
set enable_sort = on
set hnsw.ef_search = 100
set plan_cache_mode = force_generic_plan
set hnsw.iterative_scan = relaxed_order
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count * 2, 20);
  exact boolean := true;
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
begin
  select coalesce(array_agg(c.id order by c.score desc, c.id), '{}'), coalesce(array_agg(c.score order by c.score desc, c.id), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc, c.id), '{}')
    into lex_ids, lex_scores, lex_cover
    from mhq.knowledge_lexical_candidates(query_text, category_filter, tag_filter, include_archived, pool) c;
  best := coalesce(lex_scores[1], 0);

  if query_embedding is not null and query_model is not null then
    if category_filter is null and tag_filter is null and not include_archived then
      -- inner product: the index's operator; the vectors are unit length, so -(a <#> b) is the cosine
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(-n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.published_knowledge_vector_candidates(query_embedding, query_model, pool) n
       where -n.distance >= min_similarity;
    else
      if category_filter is not null or tag_filter is not null then
        select count(*) <= exact_scan_max into exact
          from (
            select 1 from knowledge_entries k
             where k.embedding is not null and k.embedding_model = query_model
               and (include_archived or k.status = 'published')
               and (category_filter is null or k.category = category_filter)
               and (tag_filter is null or k.tags @> tag_filter)
             limit exact_scan_max + 1
          ) filtered;
      else
        exact := false;
      end if;
      if not exact then
        perform set_config('enable_seqscan', 'off', true);
        perform set_config('enable_bitmapscan', 'off', true);
        perform set_config('enable_sort', 'off', true);
      end if;
      -- dynamic so that it is planned for these settings and these filter values every time, on
      -- the HNSW index of the query's width
      execute format($q$
        select coalesce(array_agg(nearest.id order by nearest.distance, nearest.id), '{}'),
               coalesce(array_agg(-nearest.distance order by nearest.distance, nearest.id), '{}')
          from (
            select k.id, k.embedding::vector(%1$s) <#> $1::vector(%1$s) as distance
              from knowledge_entries k
             where vector_dims(k.embedding) = %1$s and k.embedding_model = $6
               and ($2 or k.status = 'published')
               and ($3::text is null or k.category = $3)
               and ($4::text[] is null or k.tags @> $4)
             order by k.embedding::vector(%1$s) <#> $1::vector(%1$s)
             limit $5
          ) nearest
         where -nearest.distance >= $7
      $q$, vector_dims(query_embedding))
        into vec_ids, vec_sims using query_embedding, include_archived, category_filter, tag_filter, pool, query_model, min_similarity;
      perform set_config('enable_seqscan', 'on', true);
      perform set_config('enable_bitmapscan', 'on', true);
      perform set_config('enable_sort', 'on', true);
    end if;
  end if;

  return query
  with found_rows as (
    select k.*, lex_scores[p.lx] as bm25, lex_cover[p.lx] as cover, p.lx::bigint as lex_rank, p.vx::bigint as vec_rank,
           coalesce(vec_sims[p.vx], case when p.vx is null and query_embedding is not null and k.embedding_model = query_model
                                         then -(k.embedding <#> query_embedding) end) as sim
      from knowledge_entries k
      -- each row's place in either list (its rank there), looked up in the arrays
      cross join lateral (select array_position(lex_ids, k.id) as lx, array_position(vec_ids, k.id) as vx) p
     -- the candidates' filters once more, on the rows as RLS lets the caller read them
     where k.id = any (lex_ids || vec_ids)
       and (include_archived or k.status = 'published')
       and (category_filter is null or k.category = category_filter)
       and (tag_filter is null or k.tags @> tag_filter)
  )
  select r.id, r.title, r.content, r.category, r.tags, r.version, r.status, r.created_by, r.updated_by,
         r.created_at, r.updated_at, r.accessed_count, r.last_accessed_at, r.embedding is not null,
         (lexical_weight * coalesce(r.bm25 / nullif(best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(best, 0), 0)::float8, coalesce(r.cover, 0)::float8, r.sim::float8, r.lex_rank, r.vec_rank
    from found_rows r
   order by 15 desc, r.id
   limit match_count;
end
$$;

revoke all on function public.search_knowledge(text, vector, text, integer, text, text[], boolean, double precision, double precision, integer) from public;
grant execute on function public.search_knowledge(text, vector, text, integer, text, text[], boolean, double precision, double precision, integer) to mhq_app;
