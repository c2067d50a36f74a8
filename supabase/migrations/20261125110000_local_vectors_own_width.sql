-- ── the local model's vectors at their own width ───────────────────────────────────────────────
-- Vectors were all stored as vector(1536), the local model's 100 dimensions zero-padded. Padding
-- leaves cosine unchanged but not the cost: a 6 KB vector is stored out of line (TOAST) and read
-- back in four pieces, and every distance runs over 1,536 numbers. On the embedded database an
-- HNSW walk over 10k padded vectors took 2.9 ms against 0.9 ms at the model's width, and vectors
-- were a third of the database's size.
--
-- So `embedding` becomes a vector of any width, and every table gets one HNSW index per stored
-- width, each a partial index over its own rows (an HNSW index needs one width):
--   * 101: the offline local model (100 word dimensions, and one more that only a text without a
--     known word has, so that such a text is still a unit vector unlike every other text's);
--   * 1536: OpenAI-compatible models, zero-padded to 1536 as before.
-- A search walks the index of its query's width, and compares only vectors of its own model (the
-- embedding_model column), which all have the query's width. Local vectors stored padded are cut
-- to 101 here; the model is the same, so they need no re-embedding.


-- a local-model vector stored padded, at the model's width; any other vector as it is
create function mhq.compact_local_vector(v vector, model text) returns vector
language sql immutable
as $$
  select case when model = 'glove-6b-100d-50k-int8' and vector_dims(v) = 1536 then subvector(v, 1, 100) || subvector(v, 1536, 1) else v end
$$;

drop index if exists memories_embedding_idx;
drop index if exists interactions_embedding_idx;
drop index if exists knowledge_entries_embedding_idx;
drop index if exists agent_documents_embedding_idx;

-- the triggers that stamp each vector's model name the column: off while its type changes
drop trigger memories_embedding_model on memories;
drop trigger interactions_embedding_model on interactions;
drop trigger knowledge_entries_embedding_model on knowledge_entries;
drop trigger agent_documents_embedding_model on agent_documents;

alter table memories alter column embedding type vector using mhq.compact_local_vector(embedding, embedding_model);
alter table interactions alter column embedding type vector using mhq.compact_local_vector(embedding, embedding_model);
alter table knowledge_entries alter column embedding type vector using mhq.compact_local_vector(embedding, embedding_model);
alter table agent_documents alter column embedding type vector using mhq.compact_local_vector(embedding, embedding_model);
drop function mhq.compact_local_vector(vector, text);

create trigger memories_embedding_model before insert or update of embedding, embedding_model on memories
  for each row execute function mhq.stamp_embedding_model();
create trigger interactions_embedding_model before insert or update of embedding, embedding_model on interactions
  for each row execute function mhq.stamp_embedding_model();
create trigger knowledge_entries_embedding_model before insert or update of embedding, embedding_model on knowledge_entries
  for each row execute function mhq.stamp_embedding_model();
create trigger agent_documents_embedding_model before insert or update of embedding, embedding_model on agent_documents
  for each row execute function mhq.stamp_embedding_model();

-- one HNSW index per width (the operators as before: cosine distance; inner product for the
-- knowledge base, whose vectors are unit length)
create index memories_embedding_101_idx on memories using hnsw ((embedding::vector(101)) vector_cosine_ops) where vector_dims(embedding) = 101;
create index memories_embedding_1536_idx on memories using hnsw ((embedding::vector(1536)) vector_cosine_ops) where vector_dims(embedding) = 1536;
create index interactions_embedding_101_idx on interactions using hnsw ((embedding::vector(101)) vector_cosine_ops) where vector_dims(embedding) = 101;
create index interactions_embedding_1536_idx on interactions using hnsw ((embedding::vector(1536)) vector_cosine_ops) where vector_dims(embedding) = 1536;
create index knowledge_entries_embedding_101_idx on knowledge_entries using hnsw ((embedding::vector(101)) vector_ip_ops) where vector_dims(embedding) = 101;
create index knowledge_entries_embedding_1536_idx on knowledge_entries using hnsw ((embedding::vector(1536)) vector_ip_ops) where vector_dims(embedding) = 1536;
-- an agent's documents are few and always ranked exactly: no index

-- ── the HNSW walks, on the index of the query's width ───────────────────────────────────────────
-- Static statements, one per width, so that each keeps its plan (see the cached-plans migration);
-- the planner settings and their reasons are the weighted-search migration's.
do $do$
declare
  vector_version int[] := (
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] from pg_extension where extname = 'vector'
  );
  iterative text := case when vector_version >= array[0, 8, 0] then 'set hnsw.iterative_scan = relaxed_order' else '' end;
begin
  execute format($fn$
create or replace function mhq.memory_vector_candidates(
  query_embedding vector, query_model text, memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
%1$s
as $$
#variable_conflict use_column
begin
  perform set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  if vector_dims(query_embedding) = 101 then
    return query
    select m.id, m.embedding::vector(101) <=> query_embedding::vector(101)
      from memories m
     where vector_dims(m.embedding) = 101 and m.embedding_model = query_model
       and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
       and (m.status = 'active' or (memory_scope = 'agent' and m.status = 'resolved'))
       and (m.expires_at is null or m.expires_at > as_of)
     order by m.embedding::vector(101) <=> query_embedding::vector(101)
     limit max_rows;
  else
    return query
    select m.id, m.embedding::vector(1536) <=> query_embedding::vector(1536)
      from memories m
     where vector_dims(m.embedding) = 1536 and m.embedding_model = query_model
       and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
       and (m.status = 'active' or (memory_scope = 'agent' and m.status = 'resolved'))
       and (m.expires_at is null or m.expires_at > as_of)
     order by m.embedding::vector(1536) <=> query_embedding::vector(1536)
     limit max_rows;
  end if;
end
$$;

create or replace function mhq.published_knowledge_vector_candidates(query_embedding vector, query_model text, max_rows int)
returns table (id uuid, distance float8)
language plpgsql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
%1$s
as $$
#variable_conflict use_column
begin
  perform set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  if vector_dims(query_embedding) = 101 then
    return query
    select k.id, k.embedding::vector(101) <#> query_embedding::vector(101)
      from knowledge_entries k
     where vector_dims(k.embedding) = 101 and k.status = 'published' and k.embedding_model = query_model
     order by k.embedding::vector(101) <#> query_embedding::vector(101)
     limit max_rows;
  else
    return query
    select k.id, k.embedding::vector(1536) <#> query_embedding::vector(1536)
      from knowledge_entries k
     where vector_dims(k.embedding) = 1536 and k.status = 'published' and k.embedding_model = query_model
     order by k.embedding::vector(1536) <#> query_embedding::vector(1536)
     limit max_rows;
  end if;
end
$$;

create or replace function mhq.interaction_vector_candidates(
  query_embedding vector, query_model text, agent_filter uuid, client_filter uuid, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
%1$s
as $$
#variable_conflict use_column
begin
  perform set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  if vector_dims(query_embedding) = 101 then
    return query
    select i.id, i.embedding::vector(101) <=> query_embedding::vector(101)
      from interactions i
     where vector_dims(i.embedding) = 101 and i.embedding_model = query_model
       and (agent_filter is null or i.agent_id = agent_filter)
       and (client_filter is null or i.client_id = client_filter)
     order by i.embedding::vector(101) <=> query_embedding::vector(101)
     limit max_rows;
  else
    return query
    select i.id, i.embedding::vector(1536) <=> query_embedding::vector(1536)
      from interactions i
     where vector_dims(i.embedding) = 1536 and i.embedding_model = query_model
       and (agent_filter is null or i.agent_id = agent_filter)
       and (client_filter is null or i.client_id = client_filter)
     order by i.embedding::vector(1536) <=> query_embedding::vector(1536)
     limit max_rows;
  end if;
end
$$;
$fn$, iterative);
end
$do$;

-- The knowledge base, for curators and agents alike (unchanged but for the filtered walk's index): published entries (and archived ones with
-- include_archived, for who may read them), optionally one category and entries holding all of
-- tag_filter. Vectors: through HNSW, or ranked exactly when the filters leave at most
-- exact_scan_max entries; iterative scans keep a filtered HNSW walk from coming back short.
do $do$
declare
  vector_version int[] := (
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] from pg_extension where extname = 'vector'
  );
  iterative text := case when vector_version >= array[0, 8, 0] then 'set hnsw.iterative_scan = relaxed_order' else '' end;
begin
  execute format($fn$
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
%s
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
            select k.id, k.embedding::vector(%%1$s) <#> $1::vector(%%1$s) as distance
              from knowledge_entries k
             where vector_dims(k.embedding) = %%1$s and k.embedding_model = $6
               and ($2 or k.status = 'published')
               and ($3::text is null or k.category = $3)
               and ($4::text[] is null or k.tags @> $4)
             order by k.embedding::vector(%%1$s) <#> $1::vector(%%1$s)
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
  with lex as (
    select l.id, l.score, l.coverage, l.rank_ix from unnest(lex_ids, lex_scores, lex_cover) with ordinality as l (id, score, coverage, rank_ix)
  ),
  vec as (
    select v.id, v.sim, v.rank_ix from unnest(vec_ids, vec_sims) with ordinality as v (id, sim, rank_ix)
  ),
  found_rows as (
    select k.*, lex.score as bm25, lex.coverage as cover, lex.rank_ix as lex_rank, vec.rank_ix as vec_rank,
           coalesce(vec.sim, case when vec.id is null and query_embedding is not null and k.embedding_model = query_model
                                  then -(k.embedding <#> query_embedding) end) as sim
      from knowledge_entries k left join lex on lex.id = k.id left join vec on vec.id = k.id
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
$$
$fn$, iterative);
end
$do$;
revoke all on function public.search_knowledge(text, vector, text, int, text, text[], boolean, float8, float8, int) from public;
grant execute on function public.search_knowledge(text, vector, text, int, text, text[], boolean, float8, float8, int) to mhq_app;


-- Conversations (see the conversation-ranking migration): the context vector's zeros take the
-- query's width.
create or replace function public.search_interactions(
  query_text text,
  query_embedding vector,
  query_model text,
  match_count int,
  agent_filter uuid,
  client_filter uuid,
  exact_scan_max int default 300
)
returns table (
  id uuid,
  agent_id uuid,
  client_id uuid,
  contact_id uuid,
  channel text,
  direction text,
  speaker text,
  content text,
  occurred_at timestamptz,
  created_at timestamptz,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  context_similarity float8,
  conversation_coverage float8
)
language plpgsql volatile security invoker
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count, 50);
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  lex_conv float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
  -- the context vector's missing neighbour: zeros of the query's width
  zero vector := case when query_embedding is not null then array_fill(0::real, array[vector_dims(query_embedding)])::vector end;
  words text := ' ' || lower(regexp_replace(coalesce(query_text, ''), '[^[:alnum:]]+', ' ', 'g')) || ' ';
begin
  if agent_filter is null and client_filter is null then
    raise exception 'agent_filter or client_filter is required' using errcode = '22023';
  end if;
  select coalesce(array_agg(c.id order by c.score desc), '{}'), coalesce(array_agg(c.score order by c.score desc), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc), '{}'), coalesce(array_agg(c.conversation_coverage order by c.score desc), '{}')
    into lex_ids, lex_scores, lex_cover, lex_conv
    from mhq.interaction_lexical_candidates(query_text, agent_filter, client_filter, pool) c;
  best := coalesce(lex_scores[1], 0);

  if query_embedding is not null and query_model is not null then
    if mhq.interaction_vectors_at_most(exact_scan_max, agent_filter, client_filter) then
      select coalesce(array_agg(v.id), '{}'), coalesce(array_agg(1 - v.distance), '{}') into vec_ids, vec_sims
        from mhq.interaction_vector_exact(query_embedding, query_model, agent_filter, client_filter, pool) v;
    else
      select coalesce(array_agg(v.id), '{}'), coalesce(array_agg(1 - v.distance), '{}') into vec_ids, vec_sims
        from mhq.interaction_vector_candidates(query_embedding, query_model, agent_filter, client_filter, pool) v;
    end if;
  end if;

  return query
  with lex as (
    select l.id, l.score, l.coverage, l.conv from unnest(lex_ids, lex_scores, lex_cover, lex_conv) as l (id, score, coverage, conv)
  ),
  vec as (
    select v.id, v.sim from unnest(vec_ids, vec_sims) as v (id, sim)
  ),
  found_rows as materialized (
    select i.id, i.agent_id, i.client_id, i.contact_id, i.channel, i.direction, i.speaker, i.content, i.occurred_at, i.created_at,
           lex.score as bm25, lex.coverage as cover, lex.conv as conv_cover, d.prev_id, d.next_id, d.own_terms,
           -- a vector is read back only for lexical hits the nearest rows did not include
           coalesce(vec.sim, case when vec.id is null and query_embedding is not null and i.embedding_model = query_model
                                  then 1 - (i.embedding <=> query_embedding) end) as sim,
           coalesce(lex.score / nullif(best, 0), 0) as lex_norm,
           (i.speaker <> '' and position(' ' || lower(regexp_replace(i.speaker, '[^[:alnum:]]+', ' ', 'g')) || ' ' in words) > 0) as named,
           (i.content ~ '\?\s*$') as question
      from interactions i left join lex on lex.id = i.id left join vec on vec.id = i.id
      left join interaction_search_docs d on d.interaction_id = i.id
     where i.id = any(lex_ids || vec_ids)
       and (agent_filter is null or i.agent_id = agent_filter) and (client_filter is null or i.client_id = client_filter)
  ),
  -- every signal but the context vector's; the context vector (three vectors read per row) only
  -- for the rows that can still reach the answer
  partial as materialized (
    select r.*,
           1.5 * r.lex_norm + 0.2 * greatest(coalesce(r.sim, 0), 0) + 0.9 * coalesce(r.conv_cover, 0)
             + 0.45 * r.named::int + 0.4 * least(1, coalesce(r.own_terms, 0) / 20.0) - 0.3 * r.question::int as part_score
      from found_rows r
     order by part_score desc, r.id
     limit greatest(match_count + 20, 30)
  ),
  signals as (
    select r.*,
           -- the context vector: twice the own vector plus each neighbour's (of the same model)
           case when r.sim is not null then 1 - ((own.embedding + own.embedding
                  + coalesce((select p.embedding from interactions p where p.id = r.prev_id and p.embedding_model = query_model), zero)
                  + coalesce((select n.embedding from interactions n where n.id = r.next_id and n.embedding_model = query_model), zero)
                ) <=> query_embedding) end as ctx_sim
      from partial r left join interactions own on own.id = r.id and own.embedding_model = query_model and r.sim is not null
  )
  select s.id, s.agent_id, s.client_id, s.contact_id, s.channel, s.direction, s.speaker, s.content, s.occurred_at, s.created_at,
         greatest(0, (s.part_score + 1.0 * greatest(coalesce(s.ctx_sim, 0), 0)) / 4.45)::float8,
         s.lex_norm::float8, coalesce(s.cover, 0)::float8, s.sim::float8, s.ctx_sim::float8, coalesce(s.conv_cover, 0)::float8
    from signals s
   order by 11 desc, s.id
   limit match_count;
end
$$;
revoke all on function public.search_interactions(text, vector, text, int, uuid, uuid, int) from public;
grant execute on function public.search_interactions(text, vector, text, int, uuid, uuid, int) to mhq_app;

