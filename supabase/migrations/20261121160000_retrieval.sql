-- Retrieval (seeds 000, 001, 004): hybrid search over an agent's own memories, documents and
-- interactions and over the team's shared memories, each the same way Supabase documents hybrid
-- search (full-text rank and vector similarity fused with reciprocal rank fusion), plus the log of
-- every retrieval for analytics. The HQ knowledge base has its own function
-- (hybrid_search_knowledge, knowledge_search migration); retrieval calls it unchanged.
--
-- Every function here is security invoker: it runs under the caller's row-level security, so a
-- search can never return more than the tables' policies let that caller read — another agent's
-- private memory or another client's interactions stay invisible even if a parameter is wrong.
-- The owner/client parameters narrow the search further (tenancy in the WHERE clause and in RLS).
--
-- What is never returned: archived memories, memories past expires_at (low-confidence learning
-- entries expire after 7 days; they are invisible here from that moment, whether or not the
-- lifecycle job has archived them yet).
--
-- `query_text` uses websearch_to_tsquery syntax, like hybrid_search_knowledge. The service passes
-- the message's content words joined with "or" (any word may match, ts_rank_cd rewards messages
-- matching several), because a chat message is not a keyword query: requiring every word would
-- match almost nothing.
--
-- The semantic half follows hybrid_search_knowledge: when the rows that pass the filters are few
-- (≤ exact_scan_max) they are ranked exactly, found through the btree index on the owner; otherwise
-- the HNSW index is walked with iterative scans (pgvector ≥ 0.8, `hnsw.iterative_scan =
-- relaxed_order`, set per function when available) so that filters applied after the graph walk
-- still leave enough rows, and seq scans/bitmap scans/sorts are switched off around that one
-- statement so the planner does not prefer sorting the whole table. `ef_search` is the breadth of
-- that walk: 40 (pgvector's default) finds the true nearest neighbours of these indexes at 10k
-- rows with room to spare (measured by scripts/bench/retrieval.ts). Candidates of either path are
-- re-ranked by exact distance, so the relaxed order never reaches the result.

-- ── retrieval_log ───────────────────────────────────────────────────────────────────────────────
-- One row per retrieval (POST /retrieve) and per context assembly (GET …/context): what level the
-- smart trigger chose, which scopes were searched, what was served and how long it took. No message
-- text is kept: a message may carry personal data, and the analytics need only the shape of a call.
create table retrieval_log (
  id uuid primary key default gen_random_uuid(),
  occurred_at timestamptz not null default now(),
  -- the agent whose memory was searched
  agent_id uuid not null references agents (id) on delete cascade,
  client_id uuid references clients (id) on delete cascade,
  endpoint text not null check (endpoint in ('retrieve', 'context')),
  -- 'agent': the agent itself; 'hq': an HQ user in the console playground, searching as the agent
  caller_type text not null check (caller_type in ('agent', 'hq')),
  caller_name text not null default mhq.current_actor_name(),
  level text check (level in ('none', 'local', 'shared', 'hq')),
  -- true when the caller named the scopes and the classifier was skipped
  explicit_scopes boolean not null default false,
  scopes text[] not null default '{}',
  trigger_kinds text[] not null default '{}',
  -- [{source, id}] in the order served
  items jsonb not null default '[]' check (jsonb_typeof(items) = 'array'),
  item_count integer not null default 0 check (item_count >= 0),
  took_ms double precision not null check (took_ms >= 0),
  message_chars integer not null default 0 check (message_chars >= 0)
);
-- serves: the Dashboard (retrievals per level per day over the last N days, latency percentiles)
create index retrieval_log_occurred_idx on retrieval_log (occurred_at desc, endpoint);
-- serves: one agent's retrieval history (console, analytics per agent)
create index retrieval_log_agent_idx on retrieval_log (agent_id, occurred_at desc);

alter table retrieval_log enable row level security;
grant select, insert on retrieval_log to mhq_app;
-- HQ reads the analytics; agents write but never read them back (no RETURNING on insert).
create policy retrieval_log_select on retrieval_log for select to mhq_app using ((select mhq.is_hq()));
-- An agent logs its own retrievals, a field agent under its own client; an HQ user logs the
-- playground runs it makes as an agent. Nobody logs in another caller's name.
create policy retrieval_log_insert on retrieval_log for insert to mhq_app
  with check (
    (
      (select mhq.is_agent()) and caller_type = 'agent' and agent_id = (select mhq.agent_id())
      and client_id is not distinct from (select mhq.client_id())
    )
    or ((select mhq.is_hq()) and caller_type = 'hq')
  );

-- ── hybrid search: memories ─────────────────────────────────────────────────────────────────────
-- memory_scope 'agent': the owner's private memories (owner_id required); 'team': the team's
-- shared memories (RLS: internal agents and HQ only; owner_id null searches every author).
-- Active and resolved memories are found (a resolved thread is still history worth recalling);
-- archived and expired ones never.
do $do$
declare
  vector_version int[] := (
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] from pg_extension where extname = 'vector'
  );
  iterative text := case when vector_version >= array[0, 8, 0] then 'set hnsw.iterative_scan = relaxed_order' else '' end;
begin
  execute format($fn$
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
  exact_scan_max int default 1000,
  as_of timestamptz default now()
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
set enable_seqscan = on
set enable_bitmapscan = on
set enable_sort = on
%s
as $$
#variable_conflict use_column
declare
  candidates int := greatest(match_count, 1) * 2;
  exact boolean := true;
  semantic_ids uuid[] := '{}';
  semantic_sims float8[] := '{}';
begin
  if memory_scope not in ('agent', 'team') then
    raise exception 'memory_scope must be agent or team' using errcode = '22023';
  end if;
  if memory_scope = 'agent' and owner_id is null then
    raise exception 'owner_id is required for agent-scope memories' using errcode = '22023';
  end if;

  if query_embedding is not null then
    -- dynamic statements are planned for these parameter values each time, so the owner's btree
    -- index serves the count and the exact ranking
    execute $q$
      select count(*) <= $4 from (
        select 1 from memories m
         where m.scope = $1 and ($2::uuid is null or m.agent_id = $2)
           and m.status in ('active', 'resolved') and (m.expires_at is null or m.expires_at > $3)
           and m.embedding is not null
         limit $4 + 1
      ) filtered
    $q$ into exact using memory_scope, owner_id, as_of, exact_scan_max;
    if not exact then
      perform set_config('enable_seqscan', 'off', true);
      perform set_config('enable_bitmapscan', 'off', true);
      perform set_config('enable_sort', 'off', true);
    end if;
    -- exact: `+ 0` keeps the planner off the HNSW index, so the few rows are ranked exactly
    execute format($q$
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        from (
          select m.id, m.embedding <=> $1 as distance
            from memories m
           where m.scope = $2 and ($3::uuid is null or m.agent_id = $3)
             and m.status in ('active', 'resolved') and (m.expires_at is null or m.expires_at > $5)
             and m.embedding is not null
           order by %%s
           limit $4
        ) n
       where 1 - n.distance >= $6
    $q$, case when exact then '(m.embedding <=> $1) + 0' else 'm.embedding <=> $1' end)
      into semantic_ids, semantic_sims using query_embedding, memory_scope, owner_id, candidates, as_of, min_similarity;
    perform set_config('enable_seqscan', 'on', true);
    perform set_config('enable_bitmapscan', 'on', true);
    perform set_config('enable_sort', 'on', true);
  end if;

  return query
  with full_text as (
    select
      m.id,
      row_number() over (order by ts_rank_cd(m.fts, websearch_to_tsquery('english', query_text)) desc, m.id) as rank_ix
    from memories m
    where coalesce(query_text, '') <> ''
      and m.fts @@ websearch_to_tsquery('english', query_text)
      and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
      and m.status in ('active', 'resolved') and (m.expires_at is null or m.expires_at > as_of)
    order by rank_ix
    limit candidates
  ),
  semantic as (
    select s.id, s.rank_ix, s.similarity
      from unnest(semantic_ids, semantic_sims) with ordinality as s (id, similarity, rank_ix)
  )
  select
    m.id, m.agent_id, m.scope, m.tier, m.category, m.title, m.content, m.tags, m.confidence, m.created_by_name,
    m.occurred_at, m.created_at,
    (coalesce(1.0 / (rrf_k + full_text.rank_ix), 0.0) * full_text_weight
      + coalesce(1.0 / (rrf_k + semantic.rank_ix), 0.0) * semantic_weight)::float8,
    full_text.rank_ix,
    semantic.rank_ix,
    semantic.similarity
  from full_text
    full outer join semantic on full_text.id = semantic.id
    join memories m on m.id = coalesce(full_text.id, semantic.id)
  order by 13 desc, coalesce(full_text.rank_ix, semantic.rank_ix), m.id
  limit match_count;
end
$$
$fn$, iterative);
end
$do$;

revoke all on function public.hybrid_search_memories(text, vector, int, text, uuid, float, float, float, int, int, timestamptz) from public;
grant execute on function public.hybrid_search_memories(text, vector, int, text, uuid, float, float, float, int, int, timestamptz) to mhq_app;

-- ── hybrid search: interactions (recall memory) ─────────────────────────────────────────────────
-- agent_filter: one agent's conversations; client_filter: one client's. RLS decides who reads
-- interactions at all (HQ; managers and orchestrators — a field agent only its own client's).
do $do$
declare
  vector_version int[] := (
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] from pg_extension where extname = 'vector'
  );
  iterative text := case when vector_version >= array[0, 8, 0] then 'set hnsw.iterative_scan = relaxed_order' else '' end;
begin
  execute format($fn$
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
  exact_scan_max int default 1000
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
set enable_seqscan = on
set enable_bitmapscan = on
set enable_sort = on
%s
as $$
#variable_conflict use_column
declare
  candidates int := greatest(match_count, 1) * 2;
  exact boolean := true;
  semantic_ids uuid[] := '{}';
  semantic_sims float8[] := '{}';
begin
  if agent_filter is null and client_filter is null then
    raise exception 'agent_filter or client_filter is required' using errcode = '22023';
  end if;

  if query_embedding is not null then
    execute $q$
      select count(*) <= $3 from (
        select 1 from interactions i
         where ($1::uuid is null or i.agent_id = $1) and ($2::uuid is null or i.client_id = $2) and i.embedding is not null
         limit $3 + 1
      ) filtered
    $q$ into exact using agent_filter, client_filter, exact_scan_max;
    if not exact then
      perform set_config('enable_seqscan', 'off', true);
      perform set_config('enable_bitmapscan', 'off', true);
      perform set_config('enable_sort', 'off', true);
    end if;
    execute format($q$
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        from (
          select i.id, i.embedding <=> $1 as distance
            from interactions i
           where ($2::uuid is null or i.agent_id = $2)
             and ($3::uuid is null or i.client_id = $3)
             and i.embedding is not null
           order by %%s
           limit $4
        ) n
       where 1 - n.distance >= $5
    $q$, case when exact then '(i.embedding <=> $1) + 0' else 'i.embedding <=> $1' end)
      into semantic_ids, semantic_sims using query_embedding, agent_filter, client_filter, candidates, min_similarity;
    perform set_config('enable_seqscan', 'on', true);
    perform set_config('enable_bitmapscan', 'on', true);
    perform set_config('enable_sort', 'on', true);
  end if;

  return query
  with full_text as (
    select
      i.id,
      row_number() over (order by ts_rank_cd(i.fts, websearch_to_tsquery('english', query_text)) desc, i.id) as rank_ix
    from interactions i
    where coalesce(query_text, '') <> ''
      and i.fts @@ websearch_to_tsquery('english', query_text)
      and (agent_filter is null or i.agent_id = agent_filter)
      and (client_filter is null or i.client_id = client_filter)
    order by rank_ix
    limit candidates
  ),
  semantic as (
    select s.id, s.rank_ix, s.similarity
      from unnest(semantic_ids, semantic_sims) with ordinality as s (id, similarity, rank_ix)
  )
  select
    i.id, i.agent_id, i.client_id, i.contact_id, i.channel, i.direction, i.speaker, i.content, i.occurred_at, i.created_at,
    (coalesce(1.0 / (rrf_k + full_text.rank_ix), 0.0) * full_text_weight
      + coalesce(1.0 / (rrf_k + semantic.rank_ix), 0.0) * semantic_weight)::float8,
    full_text.rank_ix,
    semantic.rank_ix,
    semantic.similarity
  from full_text
    full outer join semantic on full_text.id = semantic.id
    join interactions i on i.id = coalesce(full_text.id, semantic.id)
  order by 11 desc, coalesce(full_text.rank_ix, semantic.rank_ix), i.id
  limit match_count;
end
$$
$fn$, iterative);
end
$do$;

revoke all on function public.hybrid_search_interactions(text, vector, int, uuid, uuid, float, float, float, int, int) from public;
grant execute on function public.hybrid_search_interactions(text, vector, int, uuid, uuid, float, float, float, int, int) to mhq_app;

-- ── hybrid search: agent documents (SOUL, WORKING, daily notes) ─────────────────────────────────
-- One agent's documents are few (two plus one note a day), so they are always ranked exactly.
create or replace function public.hybrid_search_documents(
  query_text text,
  query_embedding vector(1536),
  match_count int,
  owner_id uuid,
  min_similarity float default 0,
  full_text_weight float default 1,
  semantic_weight float default 1,
  rrf_k int default 50
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
  full_text_rank bigint,
  semantic_rank bigint,
  similarity float8
)
language sql stable security invoker
as $$
  with full_text as (
    select d.id,
           row_number() over (order by ts_rank_cd(d.fts, websearch_to_tsquery('english', query_text)) desc, d.id) as rank_ix
      from agent_documents d
     where coalesce(query_text, '') <> ''
       and d.agent_id = owner_id
       and d.content <> ''
       and d.fts @@ websearch_to_tsquery('english', query_text)
     order by rank_ix
     limit greatest(match_count, 1) * 2
  ),
  semantic as (
    select n.id, row_number() over (order by n.distance, n.id) as rank_ix, 1 - n.distance as similarity
      from (
        select d.id, (d.embedding <=> query_embedding) + 0 as distance
          from agent_documents d
         where query_embedding is not null and d.agent_id = owner_id and d.content <> '' and d.embedding is not null
         order by 2
         limit greatest(match_count, 1) * 2
      ) n
     where 1 - n.distance >= min_similarity
  )
  select d.id, d.agent_id, d.type, d.doc_date, d.content, d.updated_at, d.created_at,
         (coalesce(1.0 / (rrf_k + full_text.rank_ix), 0.0) * full_text_weight
           + coalesce(1.0 / (rrf_k + semantic.rank_ix), 0.0) * semantic_weight)::float8,
         full_text.rank_ix, semantic.rank_ix, semantic.similarity
    from full_text
      full outer join semantic on full_text.id = semantic.id
      join agent_documents d on d.id = coalesce(full_text.id, semantic.id)
   order by 8 desc, coalesce(full_text.rank_ix, semantic.rank_ix), d.id
   limit match_count
$$;

revoke all on function public.hybrid_search_documents(text, vector, int, uuid, float, float, float, int) from public;
grant execute on function public.hybrid_search_documents(text, vector, int, uuid, float, float, float, int) to mhq_app;
