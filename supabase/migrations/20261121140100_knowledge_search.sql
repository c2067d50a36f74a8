-- Hybrid search over the HQ knowledge base: Postgres full-text rank and pgvector similarity fused
-- with reciprocal rank fusion, following Supabase's documented `hybrid_search`
-- (https://supabase.com/docs/guides/ai/hybrid-search): over-fetch 2 × match_count from each side,
-- score = Σ weight / (rrf_k + rank), keep the best match_count. Added here: category/tag filters,
-- archived entries left out, rows whose embedding is still pending found by full text alone.
--
-- Security invoker: it runs under the caller's row-level security, so a field agent never sees an
-- archived entry and nobody sees more than the table's policies allow.
--
-- Why plpgsql and not a single SQL statement: the semantic half must stay correct and fast under
-- filters. An HNSW scan only looks at ef_search candidates before the filters apply, so a filtered
-- search could come back short; pgvector ≥ 0.8 iterative scans (`hnsw.iterative_scan =
-- relaxed_order`, set for this function when the installed pgvector has it) keep walking the graph
-- until enough rows pass. But walking the graph for a filter that matches a handful of rows costs
-- more than ranking those rows exactly, so small filtered sets (≤ exact_scan_max rows) are ranked
-- exactly instead. Separately, the planner underestimates the cost of computing 1536-dimension
-- distances row by row and prefers sorting the whole table over the HNSW index; for the index path
-- the function turns seq scans, bitmap scans and sorts off around that one statement (pgvector's
-- documented remedy), and the function's SET clauses restore them on exit. Candidates from either
-- path are ranked by exact distance, so the relaxed order never reaches the result. `ef_search` is
-- the breadth of the graph walk: 100 instead of pgvector's 40 raises the share of the true 10
-- nearest neighbours found at 10k entries from 0.77 to 0.89 for about 2 ms more (measured on the
-- bench corpus, whose entries share many sentences: a hard case for HNSW). On pgvector < 0.8
-- (no iterative scans) a filtered set larger than exact_scan_max can come back short of
-- match_count; callers there can pass a larger exact_scan_max.

do $do$
declare
  vector_version int[] := (
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] from pg_extension where extname = 'vector'
  );
  iterative text := case when vector_version >= array[0, 8, 0] then 'set hnsw.iterative_scan = relaxed_order' else '' end;
begin
  execute format($fn$
create or replace function public.hybrid_search_knowledge(
  query_text text,
  query_embedding vector(1536),
  match_count int,
  category_filter text default null,
  tag_filter text[] default null,
  include_archived boolean default false,
  full_text_weight float default 1,
  semantic_weight float default 1,
  rrf_k int default 50,
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
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql volatile security invoker
set enable_seqscan = on
set enable_bitmapscan = on
set enable_sort = on
set hnsw.ef_search = 100
%s
as $$
#variable_conflict use_column
declare
  candidates int := greatest(match_count, 1) * 2;
  exact boolean := true;
  semantic_ids uuid[] := '{}';
begin
  if query_embedding is not null then
    if category_filter is not null or tag_filter is not null then
      select count(*) <= exact_scan_max into exact
        from (
          select 1 from knowledge_entries k
           where k.embedding is not null
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
    -- dynamic so that it is planned for these settings and these filter values every time
    execute $q$
      select coalesce(array_agg(nearest.id order by nearest.distance, nearest.id), '{}')
        from (
          select k.id, k.embedding <#> $1 as distance
            from knowledge_entries k
           where k.embedding is not null
             and ($2 or k.status = 'published')
             and ($3::text is null or k.category = $3)
             and ($4::text[] is null or k.tags @> $4)
           order by k.embedding <#> $1
           limit $5
        ) nearest
    $q$ into semantic_ids using query_embedding, include_archived, category_filter, tag_filter, candidates;
    perform set_config('enable_seqscan', 'on', true);
    perform set_config('enable_bitmapscan', 'on', true);
    perform set_config('enable_sort', 'on', true);
  end if;

  return query
  with full_text as (
    select
      k.id,
      -- ts_rank_cd is not indexable, but it only ranks the rows the where clause matched
      row_number() over (order by ts_rank_cd(k.fts, websearch_to_tsquery('english', query_text)) desc, k.id) as rank_ix
    from knowledge_entries k
    where coalesce(query_text, '') <> ''
      and k.fts @@ websearch_to_tsquery('english', query_text)
      and (include_archived or k.status = 'published')
      and (category_filter is null or k.category = category_filter)
      and (tag_filter is null or k.tags @> tag_filter)
    order by rank_ix
    limit candidates
  ),
  semantic as (
    select s.id, s.rank_ix from unnest(semantic_ids) with ordinality as s (id, rank_ix)
  )
  select
    k.id, k.title, k.content, k.category, k.tags, k.version, k.status, k.created_by, k.updated_by,
    k.created_at, k.updated_at, k.accessed_count, k.last_accessed_at, k.embedding is not null,
    (coalesce(1.0 / (rrf_k + full_text.rank_ix), 0.0) * full_text_weight
      + coalesce(1.0 / (rrf_k + semantic.rank_ix), 0.0) * semantic_weight)::float8,
    full_text.rank_ix,
    semantic.rank_ix
  from full_text
    full outer join semantic on full_text.id = semantic.id
    join knowledge_entries k on k.id = coalesce(full_text.id, semantic.id)
  order by 15 desc, coalesce(full_text.rank_ix, semantic.rank_ix), k.id
  limit match_count;
end
$$
$fn$, iterative);
end
$do$;

revoke all on function public.hybrid_search_knowledge(text, vector, int, text, text[], boolean, float, float, int, int) from public;
grant execute on function public.hybrid_search_knowledge(text, vector, int, text, text[], boolean, float, float, int, int) to mhq_app;
