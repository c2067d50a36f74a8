-- ── search functions whose plans are kept between calls ─────────────────────────────────────────
-- Every retrieve runs the same handful of statements inside these functions. Postgres keeps the
-- plan of a PL/pgSQL function's static statement for the session (custom plans for the first
-- calls, then a generic plan when it costs no more), while a `language sql` function that is not
-- inlined, and every EXECUTE, is planned again on each call. Planning was a third of a search's
-- time on the embedded database (about 3 ms for one BM25 statement, measured with EXPLAIN
-- (ANALYZE, SUMMARY) at 10k memories), so the functions on the search path become PL/pgSQL with
-- static statements, with the same results: the same SQL, the same order, the same settings.
-- The plans these queries need do not depend on the values (an index probe per query word, a
-- primary-key probe per candidate), which is what makes a generic plan safe here.

-- The query's lexemes with their document frequency and BM25 IDF (see search_query_terms in the
-- weighted-search migration: unchanged but for its language).
create or replace function mhq.search_query_terms(p_corpus text, p_corpus_id uuid, query_text text)
returns table (lexeme text, df float8, idf float8, rare boolean, avg_len float8)
language plpgsql stable
set search_path = public, pg_temp
as $$
#variable_conflict use_column
begin
  return query
  with q as (
    select coalesce(array_agg(distinct t.lexeme), '{}') || array[''] as lexemes
      from unnest(to_tsvector('english', coalesce(query_text, ''))) t
  ),
  counts as (
    select u.lexeme, sum(u.df) as df, sum(u.len) as len
      from (
        select s.lexeme, s.df::float8 as df, s.total_len as len
          from search_term_stats s, q
         where s.corpus = p_corpus and s.corpus_id = p_corpus_id and s.lexeme = any (q.lexemes)
        union all
        select l.lexeme, l.df_delta, l.len_delta
          from search_stats_log l, q
         where l.corpus = p_corpus and l.corpus_id = p_corpus_id and l.lexeme = any (q.lexemes)
      ) u
     group by u.lexeme
  ),
  corpus as (
    select greatest(coalesce(sum(c.df), 0), 0)::float8 as n, greatest(coalesce(sum(c.len), 0), 0)::float8 as len
      from counts c where c.lexeme = ''
  ),
  terms as (
    select l.lexeme, greatest(coalesce(c.df, 0), 0)::float8 as df
      from q cross join lateral unnest(q.lexemes) as l (lexeme) left join counts c on c.lexeme = l.lexeme
     where l.lexeme <> ''
     order by 2, l.lexeme
     limit 32
  )
  select t.lexeme, t.df,
         ln(1 + (greatest(corpus.n, t.df) - t.df + 0.5) / (t.df + 0.5)),
         sum(t.df) over (order by t.df, t.lexeme) - t.df = 0 or sum(t.df) over (order by t.df, t.lexeme) <= 1500,
         greatest(corpus.len / nullif(corpus.n, 0), 1)
    from terms t, corpus
   where corpus.n > 0
   order by t.df, t.lexeme;
end
$$;

-- BM25 candidates among the knowledge entries the caller may read (knowledge_entries_select).
create or replace function mhq.knowledge_lexical_candidates(
  query_text text, category_filter text, tag_filter text[], include_archived boolean, max_rows int
)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
as $$
#variable_conflict use_column
declare
  archived boolean;
  terms record;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  total_idf float8 := 0;
  avg_len float8;
begin
  if coalesce(query_text, '') = '' or not (mhq.is_hq() or mhq.is_agent()) then
    return;
  end if;
  archived := include_archived and (mhq.is_hq() or mhq.is_kb_writer());
  for terms in select * from mhq.search_query_terms('knowledge', mhq.nil_uuid(), query_text) loop
    if terms.df = 0 then
      null;
    elsif terms.rare then
      rare := rare || terms.lexeme; rare_idf := rare_idf || terms.idf;
    else
      common := common || terms.lexeme; common_idf := common_idf || terms.idf;
    end if;
    total_idf := total_idf + terms.idf;
    avg_len := terms.avg_len;
  end loop;
  if cardinality(rare) = 0 then
    return;
  end if;
  return query
    with q as (select * from unnest(rare, rare_idf) as q (lexeme, idf)),
         cq as (select * from unnest(common, common_idf) as q (lexeme, idf)),
         phase1 as (
           select p.entry_id as id,
                  sum(q.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(q.idf) as matched
             from q join knowledge_postings p on p.lexeme = q.lexeme
            where (p.published or archived)
              and ((category_filter is null and tag_filter is null)
                   or exists (select 1 from knowledge_entries k
                               where k.id = p.entry_id and (category_filter is null or k.category = category_filter)
                                 and (tag_filter is null or k.tags @> tag_filter)))
            group by p.entry_id
            order by 2 desc, 1
            limit 200),
         phase2 as (
           -- one primary-key probe per candidate and common lexeme
           select f.id,
                  sum(cq.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(cq.idf) as matched
             from phase1 f cross join cq
             cross join lateral (select x.tf, x.len from knowledge_postings x where x.entry_id = f.id and x.lexeme = cq.lexeme) p
            group by f.id)
    select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / total_idf)::float8
      from phase1 f left join phase2 s on s.id = f.id
     order by 2 desc, f.id
     limit max_rows;
end
$$;

-- BM25 candidates among one agent's own memories or the team's (memories_select).
create or replace function mhq.memory_lexical_candidates(query_text text, memory_scope text, owner_id uuid, max_rows int)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
as $$
#variable_conflict use_column
declare
  own boolean := memory_scope = 'agent';
  corpus_key uuid;
  author uuid := case when memory_scope = 'agent' then null else owner_id end;
  terms record;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  total_idf float8 := 0;
  avg_len float8;
begin
  if coalesce(query_text, '') = '' or memory_scope not in ('agent', 'team') or (own and owner_id is null) then
    return;
  end if;
  if not (mhq.is_hq() or (own and mhq.is_agent() and owner_id = mhq.agent_id()) or (not own and mhq.is_internal_agent())) then
    return;
  end if;
  corpus_key := case when own then owner_id else mhq.nil_uuid() end;
  for terms in select * from mhq.search_query_terms('memories', corpus_key, query_text) loop
    if terms.df = 0 then
      null;
    elsif terms.rare then
      rare := rare || terms.lexeme; rare_idf := rare_idf || terms.idf;
    else
      common := common || terms.lexeme; common_idf := common_idf || terms.idf;
    end if;
    total_idf := total_idf + terms.idf;
    avg_len := terms.avg_len;
  end loop;
  if cardinality(rare) = 0 then
    return;
  end if;
  return query
    with q as (select * from unnest(rare, rare_idf) as q (lexeme, idf)),
         cq as (select * from unnest(common, common_idf) as q (lexeme, idf)),
         phase1 as (
           select p.memory_id as id,
                  sum(q.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(q.idf) as matched
             from q join memory_postings p on p.corpus_id = corpus_key and p.lexeme = q.lexeme
            where (author is null or p.agent_id = author)
            group by p.memory_id
            order by 2 desc, 1
            limit 200),
         phase2 as (
           -- one primary-key probe per candidate and common lexeme
           select f.id,
                  sum(cq.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(cq.idf) as matched
             from phase1 f cross join cq
             cross join lateral (select x.tf, x.len from memory_postings x where x.memory_id = f.id and x.lexeme = cq.lexeme) p
            group by f.id)
    select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / total_idf)::float8
      from phase1 f left join phase2 s on s.id = f.id
     order by 2 desc, f.id
     limit max_rows;
end
$$;

-- How many searchable memories a corpus holds (see the weighted-search migration).
create or replace function mhq.memory_corpus_size(memory_scope text, owner_id uuid)
returns float8
language plpgsql stable security definer
set search_path = public, pg_temp
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

-- The conversations' BM25F candidates (see the conversation-ranking migration for the scoring):
-- the same statements, one for an agent's conversations and one for a client's, each static.
create or replace function mhq.interaction_lexical_candidates(query_text text, agent_filter uuid, client_filter uuid, max_rows int)
returns table (id uuid, score float8, coverage float8, conversation_coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
as $$
#variable_conflict use_column
declare
  k1 constant float8 := 1.2;
  b constant float8 := 0.75;
  budget_rows constant int := 1500;
  candidate_rows constant int := 200;
  by_agent boolean;
  kind text;
  scope uuid;
  n float8;
  total_len float8;
  avg_len float8;
  lexemes text[];
  dfs float8[];
  idfs float8[];
  total_idf float8;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  rare_cap int[] := '{}';
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
  by_agent := agent_filter is not null;
  if by_agent then
    kind := 'agent'; scope := agent_filter;
  else
    kind := 'client'; scope := client_filter;
  end if;

  select array_agg(distinct t.lexeme) into lexemes from unnest(to_tsvector('english', query_text)) t;
  if lexemes is null then
    return;
  end if;

  select s.n, s.total_len into n, total_len from interaction_corpus_stats s where s.scope_kind = kind and s.scope_id = scope;
  if not found then
    select count(*), coalesce(sum(d.len), 0) into n, total_len
      from interaction_search_docs d
     where (by_agent and d.agent_id = scope) or (not by_agent and d.client_id = scope);
  end if;
  if n = 0 then
    return;
  end if;
  avg_len := greatest(total_len / n, 1);

  -- document frequencies: from the statistics, or counted for lexemes they do not know yet
  select array_agg(x.l order by x.d, x.l), array_agg(x.d order by x.d, x.l) into lexemes, dfs
    from (
      select u.l, coalesce(
        (select s.df from interaction_term_stats s where s.scope_kind = kind and s.scope_id = scope and s.lexeme = u.l),
        case when by_agent
             then (select count(*) from (select 1 from interaction_postings p where p.agent_id = scope and p.lexeme = u.l limit 1500) c)
             else (select count(*) from (select 1 from interaction_postings p where p.client_id = scope and p.lexeme = u.l limit 1500) c)
        end
      )::float8 as d
        from unnest(lexemes) as u (l)
    ) x;
  select array_agg(ln(1 + (greatest(n, d) - d + 0.5) / (d + 0.5)) order by o) into idfs
    from unnest(dfs) with ordinality as u (d, o);
  select sum(x) into total_idf from unnest(idfs) x;

  -- the rarest lexemes, together at most `budget_rows` postings, find the candidates; a lexeme
  -- that alone holds more is read in impact order, only its strongest `budget_rows` rows
  for i in 1 .. array_length(lexemes, 1) loop
    continue when dfs[i] = 0;
    if budget = 0 or budget + dfs[i] <= budget_rows then
      rare := rare || lexemes[i];
      rare_idf := rare_idf || idfs[i];
      rare_cap := rare_cap || least(dfs[i], budget_rows)::int;
      budget := budget + least(dfs[i], budget_rows);
    else
      common := common || lexemes[i];
      common_idf := common_idf || idfs[i];
    end if;
  end loop;
  if budget = 0 then
    return;
  end if;

  return query
    with rare_hits as materialized (
           select p.interaction_id as id, p.lexeme, q.idf,
                  q.idf * p.tf * (k1 + 1) / (p.tf + k1 * (1 - b + b * p.len / avg_len)) as part
             from unnest(rare, rare_idf, rare_cap) as q (lexeme, idf, cap)
             cross join lateral (
               -- each through its impact-ordered index; the other branch is cut off before it runs
               (select x.interaction_id, x.lexeme, x.tf, x.len from interaction_postings x
                 where by_agent and x.agent_id = scope and x.lexeme = q.lexeme and (client_filter is null or x.client_id = client_filter)
                 order by x.tf / greatest(x.len, 1) desc
                 limit q.cap)
               union all
               (select x.interaction_id, x.lexeme, x.tf, x.len from interaction_postings x
                 where not by_agent and x.client_id = scope and x.lexeme = q.lexeme
                 order by x.tf / greatest(x.len, 1) desc
                 limit q.cap)) p),
         phase1 as materialized (
           select f.id, d.conversation_id
             from (select h.id from rare_hits h group by h.id order by sum(h.part) desc limit candidate_rows) f
             left join interaction_search_docs d on d.interaction_id = f.id),
         matches as materialized (
           select h.id, h.lexeme, h.idf, h.part, f.conversation_id from rare_hits h join phase1 f on f.id = h.id
           union all
           select p.interaction_id, p.lexeme, cq.idf,
                  cq.idf * p.tf * (k1 + 1) / (p.tf + k1 * (1 - b + b * p.len / avg_len)), f.conversation_id
             from phase1 f join interaction_postings p on p.interaction_id = f.id and p.lexeme = any(common)
             join unnest(common, common_idf) as cq (lexeme, idf) on cq.lexeme = p.lexeme),
         scored as (
           select m.id, sum(m.part) as score, sum(m.idf) as matched, min(m.conversation_id::text)::uuid as conversation_id
             from matches m group by m.id),
         conversations as (
           select c.conversation_id, sum(c.idf) as matched
             from (select distinct m.conversation_id, m.lexeme, m.idf from matches m where m.conversation_id is not null) c
            group by c.conversation_id)
    select s.id, s.score::float8, (s.matched / total_idf)::float8, (coalesce(c.matched, s.matched) / total_idf)::float8
      from scored s left join conversations c on c.conversation_id = s.conversation_id
     order by 2 desc, s.id
     limit max_rows;
end
$$;

create or replace function mhq.interaction_vector_exact(
  query_embedding vector(1536), query_model text, agent_filter uuid, client_filter uuid, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql stable security invoker
as $$
#variable_conflict use_column
begin
  return query
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
end
$$;

create or replace function mhq.memory_vector_exact(
  query_embedding vector(1536), query_model text, memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql stable security invoker
as $$
#variable_conflict use_column
begin
  return query
  select u.id, u.distance from (
    select m.id, m.embedding <=> query_embedding as distance
      from memories m
     where memory_scope = 'agent' and m.agent_id = owner_id and m.scope = 'agent' and m.status in ('active', 'resolved')
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
       and m.embedding_model = query_model
    union all
    select m.id, m.embedding <=> query_embedding
      from memories m
     where memory_scope = 'team' and m.scope = 'team' and m.status = 'active' and (owner_id is null or m.agent_id = owner_id)
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
       and m.embedding_model = query_model
  ) u
  order by u.distance + 0
  limit max_rows;
end
$$;

-- An agent's documents, ranked exactly (see the weighted-search migration).
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

-- ── access counting in one call ─────────────────────────────────────────────────────────────────
-- What a request served, recorded as access_events rows in the request's transaction (see the
-- access-events migration). Security invoker: the rows are inserted as the caller, so
-- access_events_insert decides exactly as before (agents only, items they can read); the function
-- only keeps the insert's plan, with its policy checks, between calls.
create or replace function mhq.record_access(memory_ids uuid[], knowledge_ids uuid[])
returns void
language plpgsql volatile security invoker
set search_path = public, pg_temp
as $$
begin
  if cardinality(memory_ids) > 0 then
    insert into access_events (kind, item_id) select 'memory', unnest(memory_ids);
  end if;
  if cardinality(knowledge_ids) > 0 then
    insert into access_events (kind, item_id) select 'knowledge', unnest(knowledge_ids);
  end if;
end
$$;
revoke all on function mhq.record_access(uuid[], uuid[]) from public;
grant execute on function mhq.record_access(uuid[], uuid[]) to mhq_app;

-- ── the retrieval log in one call ───────────────────────────────────────────────────────────────
-- The same insert as before, kept planned between calls. Security invoker: retrieval_log_insert
-- decides who may log what, exactly as for a plain insert.
create or replace function mhq.log_retrieval(
  p_agent_id uuid, p_client_id uuid, p_endpoint text, p_caller_type text, p_level text, p_explicit_scopes boolean,
  p_scopes text[], p_trigger_kinds text[], p_items jsonb, p_took_ms float8, p_message_chars int
)
returns void
language plpgsql volatile security invoker
set search_path = public, pg_temp
as $$
begin
  insert into retrieval_log (agent_id, client_id, endpoint, caller_type, level, explicit_scopes, scopes, trigger_kinds,
                             items, item_count, took_ms, message_chars)
  values (p_agent_id, p_client_id, p_endpoint, p_caller_type, p_level, p_explicit_scopes, p_scopes, p_trigger_kinds,
          p_items, jsonb_array_length(p_items), p_took_ms, p_message_chars);
end
$$;
revoke all on function mhq.log_retrieval(uuid, uuid, text, text, text, boolean, text[], text[], jsonb, float8, int) from public;
grant execute on function mhq.log_retrieval(uuid, uuid, text, text, text, boolean, text[], text[], jsonb, float8, int) to mhq_app;

-- Whether one agent's or one client's conversations hold at most `cap` vectors: read from the
-- conversations' statistics when they exist (they trail writes by a moment, which only moves the
-- choice between an exact ranking and the HNSW walk), counted up to cap + 1 otherwise.
create or replace function mhq.interaction_vectors_at_most(cap int, agent_filter uuid, client_filter uuid)
returns boolean
language plpgsql stable security invoker
as $$
declare
  known float8;
  small boolean;
begin
  select s.n into known from interaction_corpus_stats s
   where (agent_filter is not null and s.scope_kind = 'agent' and s.scope_id = agent_filter)
      or (agent_filter is null and s.scope_kind = 'client' and s.scope_id = client_filter);
  if known is not null then
    return known <= cap;
  end if;
  select count(*) <= cap into small from (
    select 1 from interactions i
     where agent_filter is not null and i.agent_id = agent_filter
       and (client_filter is null or i.client_id = client_filter) and i.embedding is not null
    union all
    select 1 from interactions i
     where agent_filter is null and i.client_id = client_filter and i.embedding is not null
    limit cap + 1
  ) f;
  return small;
end
$$;
