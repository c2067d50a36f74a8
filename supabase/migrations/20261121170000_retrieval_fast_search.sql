-- Retrieval, fast paths (issue 6's benchmark: retrieve p95 ≤ 50 ms at 10k items on the embedded
-- database). Replaces the hybrid search functions of the retrieval migration with versions that
-- keep the same results but stay fast as an agent's memory, its conversations and the knowledge
-- base grow to tens of thousands of rows, and adds the lean published-knowledge search retrieval
-- runs on every message.
--
-- Every hybrid_search_* function stays security invoker: it runs under the caller's row-level
-- security, so a search never returns more than the tables' policies let that caller read.
--
-- Full text. `query_text` is websearch_to_tsquery text, as for hybrid_search_knowledge; the service
-- passes a message's content words joined with "or", because a chat message is not a keyword query
-- and requiring every word would match almost nothing. Two things keep that fast:
--   * Only selective words take part: each word is probed against the rows being searched and kept
--     if it matches at most `term_row_cap` of them (an IDF cut-off). A word found in thousands of
--     rows says little about which row is meant, and would make Postgres fetch and rank all of them
--     (tens of ms at 10k rows in PGlite); the vector half still ranks by its meaning.
--   * The GIN index must do the matching. Under row-level security Postgres will not use an index
--     for a non-leakproof operator such as tsvector @@ tsquery (it may not run user conditions on
--     rows before the policy has passed them), so a search as the caller reads and matches every
--     row of the table: ~20 µs a row, 200 ms at 10k knowledge entries. The text candidates therefore
--     come from small security-definer functions (mhq.*_text_candidates) that apply the table's
--     read policy themselves — from the caller's claims, never from arguments — and return only ids
--     and ranks; every candidate is then read again through RLS by the security-invoker search, so
--     a mistake in such a function could hide a row but never show one. Probing runs there too, on
--     the rows the caller may read, so it learns nothing about anyone else's rows.
--
-- Vectors. When the rows that pass the filters are few (≤ exact_scan_max) they are ranked exactly,
-- found through the btree index on the owner; otherwise the HNSW index is walked with
-- `hnsw.ef_search` ≥ the candidates wanted and iterative scans (pgvector ≥ 0.8,
-- `hnsw.iterative_scan = relaxed_order`, set per function when available), so filters applied after
-- the graph walk still leave enough rows. That walk runs in small SQL functions
-- (mhq.*_vector_candidates) with seq scans, bitmap scans and sorts switched off, so the planner
-- does not prefer sorting the whole table (pgvector's documented remedy). Candidates of either path
-- are re-ranked by exact distance, so the relaxed order never reaches the result.

-- Counting a memory or entry as used (accessed_count, last_accessed_at) must stay cheap: an update
-- that must also add the row to the HNSW graph costs ~25 ms in PGlite. It does not have to when it
-- is a HOT update (no indexed column changes — true of the counters — and room on the page), so
-- pages of these two tables keep 10% free for it.
alter table memories set (fillfactor = 90);
alter table knowledge_entries set (fillfactor = 90);

-- GIN's fast-update pending list is merged into the index by autovacuum. The embedded database
-- (PGlite) has no autovacuum, so the list only ever empties when it reaches 4 MB — and every search
-- reads it from start to end (≈7 ms per lookup at 10k rows). The full-text indexes searched here
-- therefore take each new row straight into the index.
alter index memories_fts_idx set (fastupdate = off);
alter index interactions_fts_idx set (fastupdate = off);
alter index agent_documents_fts_idx set (fastupdate = off);
select gin_clean_pending_list(i::regclass)
  from unnest(array['memories_fts_idx', 'interactions_fts_idx', 'agent_documents_fts_idx']) as i;

-- serves: mhq.knowledge_text_candidates (below). The knowledge migration leaves the fts column without
-- a GIN index on purpose — callers search under RLS, where @@ cannot use one — but that function
-- reads the index as its owner, which is what keeps full-text retrieval over 10k entries at a few ms
-- instead of matching every row.
create index if not exists knowledge_entries_fts_idx on knowledge_entries using gin (fts) with (fastupdate = off);

-- The memory and interaction searches gain a last parameter (term_row_cap): the old signatures go,
-- so that no call can resolve to them.
drop function if exists public.hybrid_search_memories(text, vector, int, text, uuid, float, float, float, int, int, timestamptz);
drop function if exists public.hybrid_search_interactions(text, vector, int, uuid, uuid, float, float, float, int, int);

-- ── full-text candidates (see "Full text" above) ────────────────────────────────────────────────
-- Each returns (id, rank_ix) of at most max_rows rows matching the selective words of query_text,
-- best ts_rank_cd first, among the rows the caller may read by the table's select policy, which it
-- applies itself from the claims. Security definer only so that the GIN index can be used; the
-- callers re-read every id through RLS.

-- Each function inlines its own word probe: the probe must count the same rows the search ranks.

create or replace function mhq.memory_text_candidates(
  query_text text, memory_scope text, owner_id uuid, as_of timestamptz, term_row_cap int, max_rows int
)
returns table (id uuid, rank_ix bigint)
language plpgsql stable security definer
set search_path = public, pg_temp
-- the probes and the match go through the GIN index (a seq scan with LIMIT reads every row for a rare word)
set enable_seqscan = off
as $$
#variable_conflict use_column
declare
  own boolean := memory_scope = 'agent';
  words text;
begin
  if coalesce(query_text, '') = '' or memory_scope not in ('agent', 'team') or (own and owner_id is null) then
    return;
  end if;
  -- memories_select: HQ reads all; an agent its own agent-scope memories; internal agents team scope
  if not (mhq.is_hq() or (own and mhq.is_agent() and owner_id = mhq.agent_id()) or (not own and mhq.is_internal_agent())) then
    return;
  end if;
  select string_agg(w.word, ' or ' order by w.ord) into words
    from unnest(string_to_array(query_text, ' or ')) with ordinality as w (word, ord)
   where (select count(*) from (
            select 1 from memories m
             where m.fts @@ websearch_to_tsquery('english', w.word)
               and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
               and (m.status = 'active' or (own and m.status = 'resolved'))
               and (m.expires_at is null or m.expires_at > as_of)
             limit term_row_cap + 1) hits) <= term_row_cap;
  if words is null then
    return;
  end if;
  return query
  select m.id, row_number() over (order by ts_rank_cd(m.fts, websearch_to_tsquery('english', words)) desc, m.id)
    from memories m
   where m.fts @@ websearch_to_tsquery('english', words)
     and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
     and (m.status = 'active' or (own and m.status = 'resolved'))
     and (m.expires_at is null or m.expires_at > as_of)
   order by 2
   limit max_rows;
end
$$;
revoke all on function mhq.memory_text_candidates(text, text, uuid, timestamptz, int, int) from public;
grant execute on function mhq.memory_text_candidates(text, text, uuid, timestamptz, int, int) to mhq_app;

create or replace function mhq.interaction_text_candidates(
  query_text text, agent_filter uuid, client_filter uuid, term_row_cap int, max_rows int
)
returns table (id uuid, rank_ix bigint)
language plpgsql stable security definer
set search_path = public, pg_temp
set enable_seqscan = off
as $$
#variable_conflict use_column
declare
  words text;
begin
  if coalesce(query_text, '') = '' or (agent_filter is null and client_filter is null) then
    return;
  end if;
  -- interactions_select: HQ; internal managers and orchestrators all; field ones their own client's
  if mhq.is_hq() or (mhq.is_internal_agent() and mhq.agent_role() in ('manager', 'orchestrator')) then
    null;
  elsif mhq.is_field_agent() and mhq.agent_role() in ('manager', 'orchestrator') and mhq.client_id() is not null then
    if client_filter is not null and client_filter <> mhq.client_id() then
      return;
    end if;
    client_filter := mhq.client_id();
  else
    return;
  end if;
  select string_agg(w.word, ' or ' order by w.ord) into words
    from unnest(string_to_array(query_text, ' or ')) with ordinality as w (word, ord)
   where (select count(*) from (
            select 1 from interactions i
             where i.fts @@ websearch_to_tsquery('english', w.word)
               and (agent_filter is null or i.agent_id = agent_filter)
               and (client_filter is null or i.client_id = client_filter)
             limit term_row_cap + 1) hits) <= term_row_cap;
  if words is null then
    return;
  end if;
  return query
  select i.id, row_number() over (order by ts_rank_cd(i.fts, websearch_to_tsquery('english', words)) desc, i.id)
    from interactions i
   where i.fts @@ websearch_to_tsquery('english', words)
     and (agent_filter is null or i.agent_id = agent_filter)
     and (client_filter is null or i.client_id = client_filter)
   order by 2
   limit max_rows;
end
$$;
revoke all on function mhq.interaction_text_candidates(text, uuid, uuid, int, int) from public;
grant execute on function mhq.interaction_text_candidates(text, uuid, uuid, int, int) to mhq_app;

-- Published entries only, for every caller with knowledge-base access (HQ and non-isolated agents):
-- what hybrid_search_knowledge searches by default.
create or replace function mhq.knowledge_text_candidates(query_text text, term_row_cap int, max_rows int)
returns table (id uuid, rank_ix bigint)
language plpgsql stable security definer
set search_path = public, pg_temp
set enable_seqscan = off
as $$
#variable_conflict use_column
declare
  words text;
begin
  if coalesce(query_text, '') = '' or not (mhq.is_hq() or mhq.is_agent()) then
    return;
  end if;
  select string_agg(w.word, ' or ' order by w.ord) into words
    from unnest(string_to_array(query_text, ' or ')) with ordinality as w (word, ord)
   where (select count(*) from (
            select 1 from knowledge_entries k
             where k.fts @@ websearch_to_tsquery('english', w.word) and k.status = 'published'
             limit term_row_cap + 1) hits) <= term_row_cap;
  if words is null then
    return;
  end if;
  return query
  select k.id, row_number() over (order by ts_rank_cd(k.fts, websearch_to_tsquery('english', words)) desc, k.id)
    from knowledge_entries k
   where k.fts @@ websearch_to_tsquery('english', words) and k.status = 'published'
   order by 2
   limit max_rows;
end
$$;
revoke all on function mhq.knowledge_text_candidates(text, int, int) from public;
grant execute on function mhq.knowledge_text_candidates(text, int, int) to mhq_app;

-- ── vector candidates through HNSW (see "Vectors" above) ────────────────────────────────────────
-- SQL functions, planned on every call with the index forced by their SET clauses: the same
-- statement inside a PL/pgSQL function ran from a cached generic plan and took 3-5x as long
-- (≈25 ms instead of ≈5 ms at 10k rows in PGlite). Security invoker: the caller's RLS applies.
-- hnsw.ef_search is raised to the candidates wanted (it is read when the scan starts) and, like
-- every setting here, restored when the function returns.
do $do$
declare
  vector_version int[] := (
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] from pg_extension where extname = 'vector'
  );
  iterative text := case when vector_version >= array[0, 8, 0] then 'set hnsw.iterative_scan = relaxed_order' else '' end;
begin
  execute format($fn$
create or replace function mhq.memory_vector_candidates(
  query_embedding vector(1536), memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language sql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
%1$s
as $$
  select set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  select m.id, m.embedding <=> query_embedding
    from memories m
   where m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
     and (m.status = 'active' or (memory_scope = 'agent' and m.status = 'resolved'))
     and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
   order by m.embedding <=> query_embedding
   limit max_rows;
$$;

create or replace function mhq.interaction_vector_candidates(
  query_embedding vector(1536), agent_filter uuid, client_filter uuid, max_rows int
)
returns table (id uuid, distance float8)
language sql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
%1$s
as $$
  select set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  select i.id, i.embedding <=> query_embedding
    from interactions i
   where (agent_filter is null or i.agent_id = agent_filter)
     and (client_filter is null or i.client_id = client_filter) and i.embedding is not null
   order by i.embedding <=> query_embedding
   limit max_rows;
$$;

-- inner product, the operator of the knowledge base's index
create or replace function mhq.published_knowledge_vector_candidates(query_embedding vector(1536), max_rows int)
returns table (id uuid, distance float8)
language sql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
%1$s
as $$
  select set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  select k.id, k.embedding <#> query_embedding
    from knowledge_entries k
   where k.status = 'published' and k.embedding is not null
   order by k.embedding <#> query_embedding
   limit max_rows;
$$;
$fn$, iterative);
end
$do$;

revoke all on function mhq.memory_vector_candidates(vector, text, uuid, timestamptz, int) from public;
grant execute on function mhq.memory_vector_candidates(vector, text, uuid, timestamptz, int) to mhq_app;
revoke all on function mhq.interaction_vector_candidates(vector, uuid, uuid, int) from public;
grant execute on function mhq.interaction_vector_candidates(vector, uuid, uuid, int) to mhq_app;
revoke all on function mhq.published_knowledge_vector_candidates(vector, int) from public;
grant execute on function mhq.published_knowledge_vector_candidates(vector, int) to mhq_app;

-- The exact path (few rows pass the filters): found through the owner's or the client's btree index
-- and ranked by exact distance (`+ 0` keeps the planner off the HNSW index). SQL functions for the
-- same reason as above; the branch that does not apply is skipped by its one-time filter.
create or replace function mhq.memory_vector_exact(
  query_embedding vector(1536), memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language sql stable security invoker
as $$
  select u.id, u.distance from (
    select m.id, m.embedding <=> query_embedding as distance
      from memories m
     where memory_scope = 'agent' and m.agent_id = owner_id and m.scope = 'agent' and m.status in ('active', 'resolved')
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
    union all
    select m.id, m.embedding <=> query_embedding
      from memories m
     where memory_scope = 'team' and m.scope = 'team' and m.status = 'active' and (owner_id is null or m.agent_id = owner_id)
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
  ) u
  order by u.distance + 0
  limit max_rows;
$$;

create or replace function mhq.interaction_vector_exact(
  query_embedding vector(1536), agent_filter uuid, client_filter uuid, max_rows int
)
returns table (id uuid, distance float8)
language sql stable security invoker
as $$
  select u.id, u.distance from (
    select i.id, i.embedding <=> query_embedding as distance
      from interactions i
     where agent_filter is not null and i.agent_id = agent_filter
       and (client_filter is null or i.client_id = client_filter) and i.embedding is not null
    union all
    select i.id, i.embedding <=> query_embedding
      from interactions i
     where agent_filter is null and i.client_id = client_filter and i.embedding is not null
  ) u
  order by u.distance + 0
  limit max_rows;
$$;

revoke all on function mhq.memory_vector_exact(vector, text, uuid, timestamptz, int) from public;
grant execute on function mhq.memory_vector_exact(vector, text, uuid, timestamptz, int) to mhq_app;
revoke all on function mhq.interaction_vector_exact(vector, uuid, uuid, int) from public;
grant execute on function mhq.interaction_vector_exact(vector, uuid, uuid, int) to mhq_app;

-- Whether at most `cap` rows pass the filters (then the exact path is taken); counts no further.
create or replace function mhq.memory_vectors_at_most(cap int, memory_scope text, owner_id uuid, as_of timestamptz)
returns boolean
language sql stable security invoker
as $$
  select count(*) <= cap from (
    select 1 from memories m
     where memory_scope = 'agent' and m.agent_id = owner_id and m.scope = 'agent' and m.status in ('active', 'resolved')
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
    union all
    select 1 from memories m
     where memory_scope = 'team' and m.scope = 'team' and m.status = 'active' and (owner_id is null or m.agent_id = owner_id)
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
    limit cap + 1
  ) f;
$$;

create or replace function mhq.interaction_vectors_at_most(cap int, agent_filter uuid, client_filter uuid)
returns boolean
language sql stable security invoker
as $$
  select count(*) <= cap from (
    select 1 from interactions i
     where agent_filter is not null and i.agent_id = agent_filter
       and (client_filter is null or i.client_id = client_filter) and i.embedding is not null
    union all
    select 1 from interactions i
     where agent_filter is null and i.client_id = client_filter and i.embedding is not null
    limit cap + 1
  ) f;
$$;

revoke all on function mhq.memory_vectors_at_most(int, text, uuid, timestamptz) from public;
grant execute on function mhq.memory_vectors_at_most(int, text, uuid, timestamptz) to mhq_app;
revoke all on function mhq.interaction_vectors_at_most(int, uuid, uuid) from public;
grant execute on function mhq.interaction_vectors_at_most(int, uuid, uuid) to mhq_app;

-- ── reciprocal rank fusion ──────────────────────────────────────────────────────────────────────
-- Two ranked id lists (full text, vectors) fused as Supabase's hybrid search does: one row per id
-- found by either, its score, its rank in each list and its vector similarity. Each hybrid search
-- below joins its own table to this.
create or replace function mhq.rrf_fuse(
  text_ids uuid[], semantic_ids uuid[], semantic_sims float8[], rrf_k int, full_text_weight float, semantic_weight float
)
returns table (id uuid, score float8, full_text_rank bigint, semantic_rank bigint, similarity float8)
language sql immutable
as $$
  select coalesce(t.id, s.id),
         (coalesce(1.0 / (rrf_k + t.rank_ix), 0.0) * full_text_weight
           + coalesce(1.0 / (rrf_k + s.rank_ix), 0.0) * semantic_weight)::float8,
         t.rank_ix, s.rank_ix, s.similarity
    from unnest(text_ids) with ordinality as t (id, rank_ix)
    full outer join unnest(semantic_ids, semantic_sims) with ordinality as s (id, similarity, rank_ix) on t.id = s.id
$$;
revoke all on function mhq.rrf_fuse(uuid[], uuid[], float8[], int, float, float) from public;
grant execute on function mhq.rrf_fuse(uuid[], uuid[], float8[], int, float, float) to mhq_app;

-- ── hybrid search: memories ─────────────────────────────────────────────────────────────────────
-- memory_scope 'agent': the owner's private memories, active and resolved (a resolved thread is
-- still history worth recalling). 'team': the team's shared memories, active ones (RLS: internal
-- agents and HQ only); owner_id narrows them to one author.
create or replace function public.hybrid_search_memories(
  query_text text,
  query_embedding vector(1536),
  match_count int,
  memory_scope text default 'agent',
  owner_id uuid default null,
  min_similarity float default 0,
  full_text_weight float default 1,
  semantic_weight float default 1,
  rrf_k int default 50,
  exact_scan_max int default 300,
  as_of timestamptz default now(),
  term_row_cap int default 64
)
returns table (
  id uuid,
  agent_id uuid,
  scope text,
  tier text,
  category text,
  title text,
  content text,
  tags text[],
  confidence float8,
  created_by_name text,
  occurred_at timestamptz,
  created_at timestamptz,
  score float8,
  full_text_rank bigint,
  semantic_rank bigint,
  similarity float8
)
language plpgsql volatile security invoker
as $$
#variable_conflict use_column
declare
  candidates int := greatest(match_count, 1) * 2;
  own boolean := memory_scope = 'agent';
  exact boolean;
  semantic_ids uuid[] := '{}';
  semantic_sims float8[] := '{}';
  text_ids uuid[] := '{}';
begin
  if memory_scope not in ('agent', 'team') then
    raise exception 'memory_scope must be agent or team' using errcode = '22023';
  end if;
  if own and owner_id is null then
    raise exception 'owner_id is required for agent-scope memories' using errcode = '22023';
  end if;

  if query_embedding is not null then
    exact := mhq.memory_vectors_at_most(exact_scan_max, memory_scope, owner_id, as_of);

    if exact then
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into semantic_ids, semantic_sims
        from mhq.memory_vector_exact(query_embedding, memory_scope, owner_id, as_of, candidates) n
       where 1 - n.distance >= min_similarity;
    else
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into semantic_ids, semantic_sims
        from mhq.memory_vector_candidates(query_embedding, memory_scope, owner_id, as_of, candidates) n
       where 1 - n.distance >= min_similarity;
    end if;
  end if;

  -- the text candidates as an array, like the vector ones: the final read below then finds its
  -- rows through the primary key (`= any(...)`), whatever the planner guesses of the functions
  select coalesce(array_agg(f.id order by f.rank_ix), '{}') into text_ids
    from mhq.memory_text_candidates(query_text, memory_scope, owner_id, as_of, term_row_cap, candidates) f;

  return query
  select
    m.id, m.agent_id, m.scope, m.tier, m.category, m.title, m.content, m.tags, m.confidence, m.created_by_name,
    m.occurred_at, m.created_at,
    f.score, f.full_text_rank, f.semantic_rank, f.similarity
  from mhq.rrf_fuse(text_ids, semantic_ids, semantic_sims, rrf_k, full_text_weight, semantic_weight) f
    join memories m on m.id = f.id
  -- the candidates' filters once more, on the rows as RLS lets the caller read them
  where m.id = any(text_ids || semantic_ids)
    and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
    and (m.status = 'active' or (own and m.status = 'resolved'))
    and (m.expires_at is null or m.expires_at > as_of)
  order by f.score desc, coalesce(f.full_text_rank, f.semantic_rank), m.id
  limit match_count;
end
$$;

revoke all on function public.hybrid_search_memories(text, vector, int, text, uuid, float, float, float, int, int, timestamptz, int) from public;
grant execute on function public.hybrid_search_memories(text, vector, int, text, uuid, float, float, float, int, int, timestamptz, int) to mhq_app;

-- ── hybrid search: interactions (recall memory) ─────────────────────────────────────────────────
-- agent_filter: one agent's conversations; otherwise client_filter: one client's. RLS decides who
-- reads interactions at all (HQ; managers and orchestrators — a field agent only its own client's).
create or replace function public.hybrid_search_interactions(
  query_text text,
  query_embedding vector(1536),
  match_count int,
  agent_filter uuid default null,
  client_filter uuid default null,
  min_similarity float default 0,
  full_text_weight float default 1,
  semantic_weight float default 1,
  rrf_k int default 50,
  exact_scan_max int default 300,
  term_row_cap int default 64
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
  full_text_rank bigint,
  semantic_rank bigint,
  similarity float8
)
language plpgsql volatile security invoker
as $$
#variable_conflict use_column
declare
  candidates int := greatest(match_count, 1) * 2;
  exact boolean;
  semantic_ids uuid[] := '{}';
  semantic_sims float8[] := '{}';
  text_ids uuid[] := '{}';
begin
  if agent_filter is null and client_filter is null then
    raise exception 'agent_filter or client_filter is required' using errcode = '22023';
  end if;

  if query_embedding is not null then
    exact := mhq.interaction_vectors_at_most(exact_scan_max, agent_filter, client_filter);

    if exact then
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into semantic_ids, semantic_sims
        from mhq.interaction_vector_exact(query_embedding, agent_filter, client_filter, candidates) n
       where 1 - n.distance >= min_similarity;
    else
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into semantic_ids, semantic_sims
        from mhq.interaction_vector_candidates(query_embedding, agent_filter, client_filter, candidates) n
       where 1 - n.distance >= min_similarity;
    end if;
  end if;

  -- the text candidates as an array, like the vector ones: the final read below then finds its
  -- rows through the primary key (`= any(...)`), whatever the planner guesses of the functions
  select coalesce(array_agg(f.id order by f.rank_ix), '{}') into text_ids
    from mhq.interaction_text_candidates(query_text, agent_filter, client_filter, term_row_cap, candidates) f;

  return query
  select
    i.id, i.agent_id, i.client_id, i.contact_id, i.channel, i.direction, i.speaker, i.content, i.occurred_at, i.created_at,
    f.score, f.full_text_rank, f.semantic_rank, f.similarity
  from mhq.rrf_fuse(text_ids, semantic_ids, semantic_sims, rrf_k, full_text_weight, semantic_weight) f
    join interactions i on i.id = f.id
  where i.id = any(text_ids || semantic_ids)
    and (agent_filter is null or i.agent_id = agent_filter) and (client_filter is null or i.client_id = client_filter)
  order by f.score desc, coalesce(f.full_text_rank, f.semantic_rank), i.id
  limit match_count;
end
$$;

revoke all on function public.hybrid_search_interactions(text, vector, int, uuid, uuid, float, float, float, int, int, int) from public;
grant execute on function public.hybrid_search_interactions(text, vector, int, uuid, uuid, float, float, float, int, int, int) to mhq_app;

-- ── hybrid search: the HQ knowledge base, published entries ─────────────────────────────────────
-- The knowledge domain's hybrid_search_knowledge serves the console (filters, archived entries for
-- writers); retrieval needs only published entries, unfiltered, and runs on every agent message, so
-- it has this lean variant: the same reciprocal rank fusion, full-text candidates through the GIN
-- index (mhq.knowledge_text_candidates) and vectors through mhq.published_knowledge_vector_candidates.
create or replace function public.hybrid_search_published_knowledge(
  query_text text,
  query_embedding vector(1536),
  match_count int,
  min_similarity float default 0,
  full_text_weight float default 1,
  semantic_weight float default 1,
  rrf_k int default 50,
  term_row_cap int default 64
)
returns table (
  id uuid,
  title text,
  content text,
  category text,
  tags text[],
  version int,
  created_at timestamptz,
  updated_at timestamptz,
  score float8,
  full_text_rank bigint,
  semantic_rank bigint,
  similarity float8
)
language plpgsql volatile security invoker
as $$
#variable_conflict use_column
declare
  candidates int := greatest(match_count, 1) * 2;
  semantic_ids uuid[] := '{}';
  semantic_sims float8[] := '{}';
  text_ids uuid[] := '{}';
begin
  if query_embedding is not null then
    -- inner product: the index's operator; the vectors are unit length, so -(a <#> b) is the cosine
    select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(-n.distance order by n.distance, n.id), '{}')
      into semantic_ids, semantic_sims
      from mhq.published_knowledge_vector_candidates(query_embedding, candidates) n
     where -n.distance >= min_similarity;
  end if;

  -- the text candidates as an array, like the vector ones: the final read below then finds its
  -- rows through the primary key (`= any(...)`), whatever the planner guesses of the functions
  select coalesce(array_agg(f.id order by f.rank_ix), '{}') into text_ids
    from mhq.knowledge_text_candidates(query_text, term_row_cap, candidates) f;

  return query
  select
    k.id, k.title, k.content, k.category, k.tags, k.version, k.created_at, k.updated_at,
    f.score, f.full_text_rank, f.semantic_rank, f.similarity
  from mhq.rrf_fuse(text_ids, semantic_ids, semantic_sims, rrf_k, full_text_weight, semantic_weight) f
    join knowledge_entries k on k.id = f.id
  where k.id = any(text_ids || semantic_ids) and k.status = 'published'
  order by f.score desc, coalesce(f.full_text_rank, f.semantic_rank), k.id
  limit match_count;
end
$$;

revoke all on function public.hybrid_search_published_knowledge(text, vector, int, float, float, float, int, int) from public;
grant execute on function public.hybrid_search_published_knowledge(text, vector, int, float, float, float, int, int) to mhq_app;
