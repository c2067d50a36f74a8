-- Retrieval quality: interactions ranked by BM25F with their conversation's context, and vectors
-- that record the model that made them.
--
-- ── Model-tagged vectors ─────────────────────────────────────────────────────────────────────────
-- Every embedded table gets `embedding_model`: the model that made the row's vector. Writers set it
-- through the transaction setting `mhq.embedding_model` (the app sets it with the caller's claims)
-- or name it explicitly (the backfill); the trigger below clears it with the vector. A search only
-- compares vectors of its own model; the backfill re-embeds rows of any other model (or of none:
-- vectors written before this migration are of an unknown model and are queued again).
alter table memories add column embedding_model text;
alter table interactions add column embedding_model text;
alter table knowledge_entries add column embedding_model text;
alter table agent_documents add column embedding_model text;

create or replace function mhq.stamp_embedding_model() returns trigger
language plpgsql
as $$
begin
  if new.embedding is null then
    new.embedding_model := null;
  elsif tg_op = 'INSERT' then
    new.embedding_model := coalesce(new.embedding_model, nullif(current_setting('mhq.embedding_model', true), ''));
  elsif new.embedding is distinct from old.embedding and new.embedding_model is not distinct from old.embedding_model then
    new.embedding_model := nullif(current_setting('mhq.embedding_model', true), '');
  end if;
  return new;
end
$$;

create trigger memories_embedding_model before insert or update of embedding, embedding_model on memories
  for each row execute function mhq.stamp_embedding_model();
create trigger interactions_embedding_model before insert or update of embedding, embedding_model on interactions
  for each row execute function mhq.stamp_embedding_model();
create trigger knowledge_entries_embedding_model before insert or update of embedding, embedding_model on knowledge_entries
  for each row execute function mhq.stamp_embedding_model();
create trigger agent_documents_embedding_model before insert or update of embedding, embedding_model on agent_documents
  for each row execute function mhq.stamp_embedding_model();

-- The vector halves of the existing searches keep their signatures and compare only vectors of the
-- transaction's model (mhq.embedding_model); with no model set they compare none.
create or replace function mhq.embedding_model() returns text
language sql stable
as $$ select nullif(current_setting('mhq.embedding_model', true), '') $$;
grant execute on function mhq.embedding_model() to mhq_app;

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
     and m.embedding_model = mhq.embedding_model()
   order by m.embedding <=> query_embedding
   limit max_rows;
$$;

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
   where k.status = 'published' and k.embedding is not null and k.embedding_model = mhq.embedding_model()
   order by k.embedding <#> query_embedding
   limit max_rows;
$$;

create or replace function mhq.interaction_vector_candidates(
  query_embedding vector(1536), query_model text, agent_filter uuid, client_filter uuid, max_rows int
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
     and i.embedding_model = query_model
   order by i.embedding <=> query_embedding
   limit max_rows;
$$;
$fn$, iterative);
end
$do$;
revoke all on function mhq.interaction_vector_candidates(vector, text, uuid, uuid, int) from public;
grant execute on function mhq.interaction_vector_candidates(vector, text, uuid, uuid, int) to mhq_app;

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
       and m.embedding_model = mhq.embedding_model()
    union all
    select m.id, m.embedding <=> query_embedding
      from memories m
     where memory_scope = 'team' and m.scope = 'team' and m.status = 'active' and (owner_id is null or m.agent_id = owner_id)
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
       and m.embedding_model = mhq.embedding_model()
  ) u
  order by u.distance + 0
  limit max_rows;
$$;

create or replace function mhq.interaction_vector_exact(
  query_embedding vector(1536), query_model text, agent_filter uuid, client_filter uuid, max_rows int
)
returns table (id uuid, distance float8)
language sql stable security invoker
as $$
  select u.id, u.distance from (
    select i.id, i.embedding <=> query_embedding as distance
      from interactions i
     where agent_filter is not null and i.agent_id = agent_filter
       and (client_filter is null or i.client_id = client_filter) and i.embedding is not null
       and i.embedding_model = query_model
    union all
    select i.id, i.embedding <=> query_embedding
      from interactions i
     where agent_filter is null and i.client_id = client_filter and i.embedding is not null
       and i.embedding_model = query_model
  ) u
  order by u.distance + 0
  limit max_rows;
$$;
revoke all on function mhq.interaction_vector_exact(vector, text, uuid, uuid, int) from public;
grant execute on function mhq.interaction_vector_exact(vector, text, uuid, uuid, int) to mhq_app;

-- Documents: the same search, vectors of the transaction's model only.
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
           and d.embedding_model = mhq.embedding_model()
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


-- ── One knowledge search ────────────────────────────────────────────────────────────────────────
-- Curators (GET /knowledge?q=) and agents (retrieval's knowledge scope) search the knowledge base
-- through one function, hybrid_search_knowledge, so an entry ranks the same for both; the published
-- variant retrieval calls is that function with archived entries left out. Its full-text half goes
-- through the GIN index in a security-definer function that applies knowledge_entries_select itself
-- (archived entries only for HQ and knowledge-base writers), without the old selective-words cap;
-- its vector half compares only vectors of the transaction's model.
create or replace function mhq.knowledge_text_ids(
  query_text text, category_filter text, tag_filter text[], include_archived boolean, max_rows int
)
returns table (id uuid, rank_ix bigint)
language plpgsql stable security definer
set search_path = public, pg_temp
-- no planner settings: at 10k entries `enable_seqscan = off` made a common word 3x faster on
-- PostgreSQL 15 (25 vs 75 ms) but slower in PGlite (48 vs 40 ms, 139 vs 86 ms for two words), and
-- made no difference for rare words on either
as $$
#variable_conflict use_column
declare
  archived boolean;
begin
  if coalesce(query_text, '') = '' or not (mhq.is_hq() or mhq.is_agent()) then
    return;
  end if;
  archived := include_archived and (mhq.is_hq() or mhq.is_kb_writer());
  return query
  select k.id, row_number() over (order by ts_rank_cd(k.fts, websearch_to_tsquery('english', query_text)) desc, k.id)
    from knowledge_entries k
   where k.fts @@ websearch_to_tsquery('english', query_text)
     and (k.status = 'published' or (archived and k.status = 'archived'))
     and (category_filter is null or k.category = category_filter)
     and (tag_filter is null or k.tags @> tag_filter)
   order by 2
   limit max_rows;
end
$$;
revoke all on function mhq.knowledge_text_ids(text, text, text[], boolean, int) from public;
grant execute on function mhq.knowledge_text_ids(text, text, text[], boolean, int) to mhq_app;

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
           where k.embedding is not null and k.embedding_model = mhq.embedding_model()
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
           where k.embedding is not null and k.embedding_model = mhq.embedding_model()
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
    select f.id, f.rank_ix from mhq.knowledge_text_ids(query_text, category_filter, tag_filter, include_archived, candidates) f
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


-- Retrieval's knowledge scope: the same search over published entries, with each hit's similarity.
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
language sql volatile security invoker
as $$
  select h.id, h.title, h.content, h.category, h.tags, h.version, h.created_at, h.updated_at, h.score,
         h.full_text_rank, h.semantic_rank,
         case when h.semantic_rank is not null then -(k.embedding <#> query_embedding) end::float8
    from public.hybrid_search_knowledge(query_text, query_embedding, match_count, null, null, false,
                                        full_text_weight, semantic_weight, rrf_k) h
    join knowledge_entries k on k.id = h.id
   where h.full_text_rank is not null or -(k.embedding <#> query_embedding) >= min_similarity
   order by h.score desc, coalesce(h.full_text_rank, h.semantic_rank), h.id
$$;

-- ── Conversations ────────────────────────────────────────────────────────────────────────────────
-- A conversation is the run of interactions of one agent with one contact (or with nobody named)
-- of one client on one channel, each turn at most 6 hours after the one before it. Its turns are
-- ordered by (occurred_at, id).
create index interactions_conversation_idx on interactions (
  agent_id, channel, (coalesce(contact_id, '00000000-0000-0000-0000-000000000000'::uuid)),
  (coalesce(client_id, '00000000-0000-0000-0000-000000000000'::uuid)), occurred_at, id
);

create or replace function mhq.conversation_gap() returns interval
language sql immutable
as $$ select interval '6 hours' $$;

-- The turn before (step -1) or after (step 1) an interaction in its conversation. PL/pgSQL, so each
-- direction runs its own cached plan down interactions_conversation_idx.
create or replace function mhq.interaction_neighbour(p_id uuid, step int)
returns uuid
language plpgsql stable
set search_path = public, pg_temp
as $$
declare
  x record;
  found_id uuid;
begin
  select i.id, i.agent_id, i.channel, coalesce(i.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) as contact,
         coalesce(i.client_id, '00000000-0000-0000-0000-000000000000'::uuid) as client, i.occurred_at
    into x from interactions i where i.id = p_id;
  if not found then
    return null;
  end if;
  if step < 0 then
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.id) < (x.occurred_at, x.id) and p.occurred_at >= x.occurred_at - mhq.conversation_gap()
     order by p.occurred_at desc, p.id desc
     limit 1;
  else
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.id) > (x.occurred_at, x.id) and p.occurred_at <= x.occurred_at + mhq.conversation_gap()
     order by p.occurred_at, p.id
     limit 1;
  end if;
  return found_id;
end
$$;

-- ── BM25F postings ───────────────────────────────────────────────────────────────────────────────
-- Each interaction is indexed as one document made of weighted fields: its own text (1), the
-- previous turn of its conversation (0.5), the next turn (0.3, added when it arrives) and its day
-- ("8 May 2023", 0.5). A field's words count `weight` times each: tf and the document's length
-- are weighted sums, the length without the next turn, so that a turn's arrival rewrites only the
-- previous turn's postings of the words it brings. Lexemes are Postgres's `english` ones (stemmed,
-- stopwords dropped).
create table interaction_search_docs (
  interaction_id uuid primary key references interactions (id) on delete cascade,
  agent_id uuid not null,
  client_id uuid,
  len real not null
);
-- serves: the corpus statistics of one agent's or one client's conversations
create index interaction_search_docs_agent_idx on interaction_search_docs (agent_id);
create index interaction_search_docs_client_idx on interaction_search_docs (client_id) where client_id is not null;

create table interaction_postings (
  interaction_id uuid not null references interactions (id) on delete cascade,
  lexeme text not null,
  agent_id uuid not null,
  client_id uuid,
  tf real not null,
  -- the document's weighted length, repeated so that ranking reads one table
  len real not null,
  primary key (interaction_id, lexeme)
);
-- serves: the rows holding a lexeme among one agent's (or one client's) conversations
create index interaction_postings_agent_idx on interaction_postings (agent_id, lexeme);
create index interaction_postings_client_idx on interaction_postings (client_id, lexeme) where client_id is not null;

-- Term statistics per scope ('agent': one agent's conversations; 'client': one client's), rebuilt
-- in batches by mhq.refresh_interaction_stats — never counted up by each write, so concurrent
-- writes share no counter row. Terms newer than the last rebuild are counted at query time.
create table interaction_term_stats (
  scope_kind text not null check (scope_kind in ('agent', 'client')),
  scope_id uuid not null,
  lexeme text not null,
  df integer not null,
  primary key (scope_kind, scope_id, lexeme)
);
create table interaction_corpus_stats (
  scope_kind text not null check (scope_kind in ('agent', 'client')),
  scope_id uuid not null,
  n integer not null,
  total_len float8 not null,
  refreshed_at timestamptz not null default now(),
  primary key (scope_kind, scope_id)
);

-- Written only by the security-definer functions below; read as the interactions they describe.
alter table interaction_search_docs enable row level security;
alter table interaction_postings enable row level security;
alter table interaction_term_stats enable row level security;
alter table interaction_corpus_stats enable row level security;
grant select on interaction_search_docs, interaction_postings, interaction_term_stats, interaction_corpus_stats to mhq_app;
-- interactions_select: HQ; internal managers and orchestrators all; field ones their own client's
create policy interaction_search_docs_select on interaction_search_docs for select to mhq_app
  using (
    (select mhq.is_hq())
    or ((select mhq.is_internal_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator'))
    or ((select mhq.is_field_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator') and client_id = (select mhq.client_id()))
  );
create policy interaction_postings_select on interaction_postings for select to mhq_app
  using (
    (select mhq.is_hq())
    or ((select mhq.is_internal_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator'))
    or ((select mhq.is_field_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator') and client_id = (select mhq.client_id()))
  );
create policy interaction_term_stats_select on interaction_term_stats for select to mhq_app
  using (
    (select mhq.is_hq())
    or ((select mhq.is_internal_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator'))
    or ((select mhq.is_field_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator')
        and scope_kind = 'client' and scope_id = (select mhq.client_id()))
  );
create policy interaction_corpus_stats_select on interaction_corpus_stats for select to mhq_app
  using (
    (select mhq.is_hq())
    or ((select mhq.is_internal_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator'))
    or ((select mhq.is_field_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator')
        and scope_kind = 'client' and scope_id = (select mhq.client_id()))
  );

-- The weighted terms of one interaction's document (see above).
create or replace function mhq.interaction_terms(p_id uuid, prev_id uuid, next_id uuid)
returns table (lexeme text, tf real, len real)
language sql stable
set search_path = public, pg_temp
as $$
  with fields as (
    select x.content as body, 1.0::float8 as w, true as counted from interactions x where x.id = p_id
    union all
    select p.content, 0.5, true from interactions p where p.id = prev_id
    union all
    select n.content, 0.3, false from interactions n where n.id = next_id
    union all
    select to_char(x.occurred_at at time zone 'UTC', 'FMDD FMMonth YYYY'), 0.5, true from interactions x where x.id = p_id
  ),
  terms as (
    select t.lexeme, f.w * coalesce(array_length(t.positions, 1), 1) as tf, f.counted
      from fields f, unnest(to_tsvector('english', f.body)) t
  )
  select t.lexeme, sum(t.tf)::real, (sum(sum(t.tf) filter (where t.counted)) over ())::real from terms t group by t.lexeme
$$;

-- (Re)writes one interaction's postings. The document row is locked first, so two writers of the
-- same row (a turn and its late-arriving neighbour) take turns, each reading the neighbours anew.
create or replace function mhq.index_interaction(p_id uuid)
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  r record;
  lexemes text[];
  tfs real[];
  doc_len real;
begin
  select i.id, i.agent_id, i.client_id into r from interactions i where i.id = p_id;
  if not found then
    return;
  end if;
  insert into interaction_search_docs as d (interaction_id, agent_id, client_id, len)
  values (r.id, r.agent_id, r.client_id, 0)
  on conflict (interaction_id) do update set len = d.len;
  select coalesce(array_agg(t.lexeme), '{}'), coalesce(array_agg(t.tf), '{}'), coalesce(max(t.len), 0)
    into lexemes, tfs, doc_len
    from mhq.interaction_terms(r.id, mhq.interaction_neighbour(r.id, -1), mhq.interaction_neighbour(r.id, 1)) t;
  delete from interaction_postings p where p.interaction_id = r.id and p.lexeme <> all (lexemes);
  insert into interaction_postings as p (interaction_id, lexeme, agent_id, client_id, tf, len)
  select r.id, u.lexeme, r.agent_id, r.client_id, u.tf, doc_len
    from unnest(lexemes, tfs) as u (lexeme, tf)
  on conflict (interaction_id, lexeme) do update set tf = excluded.tf, len = excluded.len
    where p.tf is distinct from excluded.tf or p.len is distinct from excluded.len;
  update interaction_search_docs d set len = doc_len where d.interaction_id = r.id and d.len is distinct from doc_len;
end
$$;
revoke all on function mhq.index_interaction(uuid) from public;

-- A new turn is indexed, and so are its neighbours: the previous turn gains it as its next turn,
-- the next one (when it arrived late) as its previous. Writes to one conversation take turns (a
-- transaction-scoped advisory lock on the conversation): two turns written at once would otherwise
-- not see each other, and each would index its neighbours without the other. The neighbours are
-- looked up after the lock, so a turn committed meanwhile is seen. Other conversations, of the same
-- agent or client included, are never held up.
create or replace function mhq.interactions_index_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
declare
  prev_id uuid;
  next_id uuid;
begin
  perform pg_advisory_xact_lock(
    hashtext('mhq.conversation'),
    hashtext(new.agent_id::text || ':' || new.channel || ':' || coalesce(new.contact_id::text, '') || ':' || coalesce(new.client_id::text, ''))
  );
  prev_id := mhq.interaction_neighbour(new.id, -1);
  next_id := mhq.interaction_neighbour(new.id, 1);
  if prev_id is not null then
    perform mhq.index_interaction(prev_id);
  end if;
  perform mhq.index_interaction(new.id);
  if next_id is not null then
    perform mhq.index_interaction(next_id);
  end if;
  return null;
end
$$;
create trigger interactions_index after insert on interactions
  for each row execute function mhq.interactions_index_trigger();
-- A changed text (the opt-out erasure redacts names in unlinked interactions) is indexed again, with
-- its neighbours, whose context holds it.
create trigger interactions_reindex after update of content on interactions
  for each row when (old.content is distinct from new.content) execute function mhq.interactions_index_trigger();

-- Rebuilds one scope's statistics (a job: lib/retrieval/term-stats.ts). Concurrent rebuilds of one
-- scope do not queue up: whoever does not get the scope's advisory lock skips.
create or replace function mhq.refresh_interaction_stats(p_kind text, p_scope uuid, p_wait boolean default false)
returns boolean
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  col text := case p_kind when 'agent' then 'agent_id' when 'client' then 'client_id' end;
begin
  if col is null or p_scope is null then
    return false;
  end if;
  if p_wait then
    perform pg_advisory_xact_lock(hashtext('mhq.interaction_stats'), hashtext(p_kind || ':' || p_scope::text));
  elsif not pg_try_advisory_xact_lock(hashtext('mhq.interaction_stats'), hashtext(p_kind || ':' || p_scope::text)) then
    return false;
  end if;
  delete from interaction_term_stats where scope_kind = p_kind and scope_id = p_scope;
  execute format(
    'insert into interaction_term_stats (scope_kind, scope_id, lexeme, df)
     select $1, $2, p.lexeme, count(*) from interaction_postings p where p.%I = $2 group by p.lexeme', col)
    using p_kind, p_scope;
  execute format(
    'insert into interaction_corpus_stats as s (scope_kind, scope_id, n, total_len, refreshed_at)
     select $1, $2, count(*), coalesce(sum(d.len), 0), now() from interaction_search_docs d where d.%I = $2
     on conflict (scope_kind, scope_id) do update set n = excluded.n, total_len = excluded.total_len, refreshed_at = now()', col)
    using p_kind, p_scope;
  return true;
end
$$;
revoke all on function mhq.refresh_interaction_stats(text, uuid, boolean) from public;

-- Deleted interactions (the opt-out erasure) take their words out of the statistics at once: the
-- statistics hold words, and an erased contact's must not outlive its conversations.
create or replace function mhq.interactions_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, g.agent_id as id from gone g
           union select distinct 'client', g.client_id from gone g where g.client_id is not null
           order by 1, 2) s;
  return null;
end
$$;
create trigger interactions_deleted after delete on interactions
  referencing old table as gone
  for each statement execute function mhq.interactions_deleted_trigger();

-- The same when texts change (redaction), and only then: an update of embeddings leaves them be.
create or replace function mhq.interactions_redacted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, g.agent_id as id
             from gone g join fresh f on f.id = g.id where f.content is distinct from g.content
           union
           select distinct 'client', g.client_id
             from gone g join fresh f on f.id = g.id where f.content is distinct from g.content and g.client_id is not null
           order by 1, 2) s;
  return null;
end
$$;
create trigger interactions_redacted after update on interactions
  referencing old table as gone new table as fresh
  for each statement execute function mhq.interactions_redacted_trigger();

-- ── BM25 over the postings ──────────────────────────────────────────────────────────────────────
-- (id, score, coverage) of at most max_rows interactions matching any of the message's lexemes,
-- best BM25 (k1 1.2, b 0.75) first, among the rows the caller may read by interactions_select,
-- which it applies itself from the claims (security definer: see the fast-search migration; the
-- caller re-reads every id through RLS). Two phases keep it fast at any size: the rarer lexemes
-- (together at most 4,000 postings) find the candidates, the commoner ones are then scored on the
-- best 400 candidates only. coverage: the share of the message's IDF mass a row matches.
create or replace function mhq.interaction_lexical_candidates(query_text text, agent_filter uuid, client_filter uuid, max_rows int)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
as $$
#variable_conflict use_column
declare
  k1 constant float8 := 1.2;
  b constant float8 := 0.75;
  kind text;
  scope uuid;
  col text;
  n float8;
  total_len float8;
  avg_len float8;
  lexemes text[];
  dfs float8[];
  idfs float8[];
  total_idf float8;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  budget float8 := 0;
begin
  if coalesce(query_text, '') = '' or (agent_filter is null and client_filter is null) then
    return;
  end if;
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
  if agent_filter is not null then
    kind := 'agent'; scope := agent_filter; col := 'agent_id';
  else
    kind := 'client'; scope := client_filter; col := 'client_id';
  end if;

  select array_agg(distinct t.lexeme) into lexemes from unnest(to_tsvector('english', query_text)) t;
  if lexemes is null then
    return;
  end if;

  select s.n, s.total_len into n, total_len from interaction_corpus_stats s where s.scope_kind = kind and s.scope_id = scope;
  if not found then
    execute format('select count(*), coalesce(sum(d.len), 0) from interaction_search_docs d where d.%I = $1', col)
      into n, total_len using scope;
  end if;
  if n = 0 then
    return;
  end if;
  avg_len := greatest(total_len / n, 1);

  -- document frequencies: from the statistics, or counted for lexemes they do not know yet
  execute format(
    'select array_agg(l order by d, l), array_agg(d order by d, l) from (
       select u.l, coalesce(
         (select s.df from interaction_term_stats s where s.scope_kind = $2 and s.scope_id = $3 and s.lexeme = u.l),
         (select count(*) from (select 1 from interaction_postings p where p.%I = $3 and p.lexeme = u.l limit 4000) c)
       )::float8 as d
       from unnest($1::text[]) as u (l)) x', col)
    into lexemes, dfs using lexemes, kind, scope;
  select array_agg(ln(1 + (greatest(n, d) - d + 0.5) / (d + 0.5)) order by o) into idfs
    from unnest(dfs) with ordinality as u (d, o);
  select sum(x) into total_idf from unnest(idfs) x;

  for i in 1 .. array_length(lexemes, 1) loop
    continue when dfs[i] = 0;
    if budget = 0 or budget + dfs[i] <= 4000 then
      rare := rare || lexemes[i];
      rare_idf := rare_idf || idfs[i];
      budget := budget + dfs[i];
    else
      common := common || lexemes[i];
      common_idf := common_idf || idfs[i];
    end if;
  end loop;
  if budget = 0 then
    return;
  end if;

  return query execute format(
    'with q as (select * from unnest($1::text[], $2::float8[]) as q (lexeme, idf)),
          cq as (select * from unnest($3::text[], $4::float8[]) as q (lexeme, idf)),
          phase1 as (
            select p.interaction_id as id,
                   sum(q.idf * p.tf * ($5 + 1) / (p.tf + $5 * (1 - $6 + $6 * p.len / $7))) as score,
                   sum(q.idf) as matched
              from q join interaction_postings p on p.%I = $8 and p.lexeme = q.lexeme
             where ($9::uuid is null or p.client_id = $9)
             group by p.interaction_id
             order by 2 desc
             limit 400),
          phase2 as (
            select p.interaction_id as id,
                   sum(cq.idf * p.tf * ($5 + 1) / (p.tf + $5 * (1 - $6 + $6 * p.len / $7))) as score,
                   sum(cq.idf) as matched
              from phase1 f join interaction_postings p on p.interaction_id = f.id
              join cq on cq.lexeme = p.lexeme
             group by p.interaction_id)
     select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / $10)::float8
       from phase1 f left join phase2 s on s.id = f.id
      order by 2 desc, f.id
      limit $11', col)
    using rare, rare_idf, common, common_idf, k1, b, avg_len, scope, client_filter, total_idf, max_rows;
end
$$;
revoke all on function mhq.interaction_lexical_candidates(text, uuid, uuid, int) from public;
grant execute on function mhq.interaction_lexical_candidates(text, uuid, uuid, int) to mhq_app;

-- ── Interactions search: BM25F and vectors by weighted scores ───────────────────────────────────
-- The best lexical and the nearest rows (at most 50 each, vectors of query_model only) are scored
-- together: lexical_weight × BM25 / the best BM25 of the message + (1 − lexical_weight) × cosine
-- similarity (0 below zero or without a vector of the model). Scores are 0–1. Security invoker:
-- every row is read through the caller's RLS.
create or replace function public.search_interactions(
  query_text text,
  query_embedding vector(1536),
  query_model text,
  match_count int,
  agent_filter uuid,
  client_filter uuid,
  lexical_weight float8 default 0.6,
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
  similarity float8
)
language plpgsql volatile security invoker
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count, 50);
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
begin
  if agent_filter is null and client_filter is null then
    raise exception 'agent_filter or client_filter is required' using errcode = '22023';
  end if;
  select coalesce(array_agg(c.id order by c.score desc), '{}'), coalesce(array_agg(c.score order by c.score desc), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc), '{}')
    into lex_ids, lex_scores, lex_cover
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
    select l.id, l.score, l.coverage from unnest(lex_ids, lex_scores, lex_cover) as l (id, score, coverage)
  ),
  vec as (
    select v.id, v.sim from unnest(vec_ids, vec_sims) as v (id, sim)
  ),
  found_rows as (
    -- a vector is read back only for lexical hits the nearest rows did not include
    select i.*, lex.score as bm25, lex.coverage as cover,
           coalesce(vec.sim, case when vec.id is null and query_embedding is not null and i.embedding_model = query_model
                                  then 1 - (i.embedding <=> query_embedding) end) as sim
      from interactions i left join lex on lex.id = i.id left join vec on vec.id = i.id
     where i.id = any(lex_ids || vec_ids)
       and (agent_filter is null or i.agent_id = agent_filter) and (client_filter is null or i.client_id = client_filter)
  )
  select r.id, r.agent_id, r.client_id, r.contact_id, r.channel, r.direction, r.speaker, r.content, r.occurred_at, r.created_at,
         (lexical_weight * coalesce(r.bm25 / nullif(best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(best, 0), 0)::float8, coalesce(r.cover, 0)::float8, r.sim::float8
    from found_rows r
   order by 11 desc, r.id
   limit match_count;
end
$$;
revoke all on function public.search_interactions(text, vector, text, int, uuid, uuid, float8, int) from public;
grant execute on function public.search_interactions(text, vector, text, int, uuid, uuid, float8, int) to mhq_app;

-- Interactions recorded before this migration get their postings now.
select mhq.index_interaction(i.id) from interactions i order by i.occurred_at, i.id;
