-- Interactions ranked as parts of their conversation.
--
-- A turn of a conversation is often meaningless alone ("Yes, last Friday!"), and the turn that
-- answers a question is often not the one that repeats its words. Three changes follow from that:
--   1. each turn's BM25F document reaches two turns back and two ahead (weights 0.5/0.25 before it,
--      0.3/0.15 after it, the day 0.5; the turns after it do not count in its length, so a new
--      turn rewrites only its predecessors' postings of the words it brings);
--   2. each turn knows its neighbours, its conversation's label and how many distinct words it
--      says itself, in interaction_search_docs;
--   3. the search scores every candidate by several signals (see search_interactions below).

alter table interaction_search_docs
  add column prev_id uuid,
  add column next_id uuid,
  -- The conversation's label: the id of its first turn as known when the turn was indexed. A label
  -- spans at most a day (a turn more than 24 hours after its label's first turn starts a new one),
  -- so an agent that talks all day on one channel still has conversations of a useful size.
  add column conversation_id uuid,
  add column conversation_started_at timestamptz,
  -- distinct lexemes of the turn's own text
  add column own_terms integer not null default 0;
-- serves: relabelling a conversation whose start changed
create index interaction_search_docs_conversation_idx on interaction_search_docs (conversation_id);
-- serves: the candidates' labels, read from the index alone
create unique index interaction_search_docs_label_idx on interaction_search_docs (interaction_id) include (conversation_id);
-- Impact-ordered postings: a lexeme's rows of one agent (or one client) by tf / length, so that a
-- lexeme held by thousands of turns is read only as far as its strongest ones. The indexes hold
-- every column ranking reads (index-only scans where the visibility map allows: the statistics job
-- vacuums the postings on the embedded database, which has no autovacuum).
drop index interaction_postings_agent_idx;
drop index interaction_postings_client_idx;
create index interaction_postings_agent_idx on interaction_postings (agent_id, lexeme, (tf / greatest(len, 1)) desc)
  include (interaction_id, client_id, tf, len);
create index interaction_postings_client_idx on interaction_postings (client_id, lexeme, (tf / greatest(len, 1)) desc)
  include (interaction_id, tf, len) where client_id is not null;

-- The weighted terms of one interaction's document: its own text (1), the turns before it (0.5,
-- 0.25), the turns after it (0.3, 0.15; not counted in the length) and its day (0.5).
create or replace function mhq.interaction_context_terms(p_id uuid, prev_id uuid, prev2_id uuid, next_id uuid, next2_id uuid)
returns table (lexeme text, tf real, len real)
language sql stable
set search_path = public, pg_temp
as $$
  with fields as (
    select x.content as body, 1.0::float8 as w, true as counted from interactions x where x.id = p_id
    union all
    select p.content, 0.5, true from interactions p where p.id = prev_id
    union all
    select p.content, 0.25, true from interactions p where p.id = prev2_id
    union all
    select n.content, 0.3, false from interactions n where n.id = next_id
    union all
    select n.content, 0.15, false from interactions n where n.id = next2_id
    union all
    select to_char(x.occurred_at at time zone 'UTC', 'FMDD FMMonth YYYY'), 0.5, true from interactions x where x.id = p_id
  ),
  terms as (
    select t.lexeme, f.w * coalesce(array_length(t.positions, 1), 1) as tf, f.counted
      from fields f, unnest(to_tsvector('english', f.body)) t
  )
  select t.lexeme, sum(t.tf)::real, (sum(sum(t.tf) filter (where t.counted)) over ())::real from terms t group by t.lexeme
$$;

-- (Re)writes one interaction's postings and document row. The document row is locked first, so two
-- writers of the same row (a turn and its late-arriving neighbour) take turns, each reading the
-- neighbours anew.
create or replace function mhq.index_interaction(p_id uuid)
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  r record;
  v_prev uuid;
  v_prev2 uuid;
  v_next uuid;
  v_next2 uuid;
  conversation uuid;
  started timestamptz;
  old_conversation uuid;
  lexemes text[];
  tfs real[];
  doc_len real;
begin
  select i.id, i.agent_id, i.client_id, i.content, i.occurred_at into r from interactions i where i.id = p_id;
  if not found then
    return;
  end if;
  insert into interaction_search_docs as d (interaction_id, agent_id, client_id, len)
  values (r.id, r.agent_id, r.client_id, 0)
  on conflict (interaction_id) do update set len = d.len
  returning d.conversation_id into old_conversation;
  v_prev := mhq.interaction_neighbour(r.id, -1);
  v_prev2 := case when v_prev is not null then mhq.interaction_neighbour(v_prev, -1) end;
  v_next := mhq.interaction_neighbour(r.id, 1);
  v_next2 := case when v_next is not null then mhq.interaction_neighbour(v_next, 1) end;
  conversation := r.id;
  started := r.occurred_at;
  if v_prev is not null then
    select d.conversation_id, d.conversation_started_at into conversation, started
      from interaction_search_docs d where d.interaction_id = v_prev;
    if conversation is null or started is null or started < r.occurred_at - interval '24 hours' then
      conversation := r.id;
      started := r.occurred_at;
    end if;
  end if;
  select coalesce(array_agg(t.lexeme), '{}'), coalesce(array_agg(t.tf), '{}'), coalesce(max(t.len), 0)
    into lexemes, tfs, doc_len
    from mhq.interaction_context_terms(r.id, v_prev, v_prev2, v_next, v_next2) t;
  delete from interaction_postings p where p.interaction_id = r.id and p.lexeme <> all (lexemes);
  insert into interaction_postings as p (interaction_id, lexeme, agent_id, client_id, tf, len)
  select r.id, u.lexeme, r.agent_id, r.client_id, u.tf, doc_len
    from unnest(lexemes, tfs) as u (lexeme, tf)
  on conflict (interaction_id, lexeme) do update set tf = excluded.tf, len = excluded.len
    where p.tf is distinct from excluded.tf or p.len is distinct from excluded.len;
  update interaction_search_docs d
     set len = doc_len, prev_id = v_prev, next_id = v_next,
         conversation_id = conversation, conversation_started_at = started,
         own_terms = length(to_tsvector('english', r.content))
   where d.interaction_id = r.id;
  -- an earlier turn arrived late (or bridged two runs): the rest of the run, at most a day of
  -- turns, takes the new label
  if old_conversation is not null and old_conversation <> conversation then
    update interaction_search_docs d set conversation_id = conversation, conversation_started_at = started
     where d.interaction_id in (select x.interaction_id from interaction_search_docs x
                                 where x.conversation_id = old_conversation order by x.interaction_id for update);
  end if;
end
$$;
revoke all on function mhq.index_interaction(uuid) from public;

drop function if exists mhq.interaction_terms(uuid, uuid, uuid);

-- A new (or changed) turn is indexed, and so are the two turns on each side of it, whose documents
-- hold it. Writes to one conversation take turns (a transaction-scoped advisory lock on the
-- conversation): two turns written at once would otherwise not see each other. The neighbours are
-- looked up after the lock, so a turn committed meanwhile is seen. Other conversations, of the same
-- agent or client included, are never held up. Rows are indexed in conversation order.
create or replace function mhq.interactions_index_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
declare
  prev_id uuid;
  prev2_id uuid;
  next_id uuid;
  next2_id uuid;
begin
  perform pg_advisory_xact_lock(
    hashtext('mhq.conversation'),
    hashtext(new.agent_id::text || ':' || new.channel || ':' || coalesce(new.contact_id::text, '') || ':' || coalesce(new.client_id::text, ''))
  );
  prev_id := mhq.interaction_neighbour(new.id, -1);
  prev2_id := case when prev_id is not null then mhq.interaction_neighbour(prev_id, -1) end;
  next_id := mhq.interaction_neighbour(new.id, 1);
  next2_id := case when next_id is not null then mhq.interaction_neighbour(next_id, 1) end;
  if prev2_id is not null then
    perform mhq.index_interaction(prev2_id);
  end if;
  if prev_id is not null then
    perform mhq.index_interaction(prev_id);
  end if;
  perform mhq.index_interaction(new.id);
  if next_id is not null then
    perform mhq.index_interaction(next_id);
  end if;
  if next2_id is not null then
    perform mhq.index_interaction(next2_id);
  end if;
  return null;
end
$$;

-- ── BM25 over the postings, with each candidate's conversation coverage ─────────────────────────
-- (id, score, coverage, conversation_coverage) of at most max_rows interactions matching any of the
-- message's lexemes, best BM25 (k1 1.2, b 0.75) first, among the rows the caller may read by
-- interactions_select, which it applies itself from the claims (security definer; the caller
-- re-reads every id through RLS). Two phases keep it fast at any size: the rarer lexemes (together
-- at most 1,500 postings, a commoner one read only as far as its 1,500 strongest) find the
-- candidates, the commoner ones are then scored on the best 200 candidates only.
-- coverage: the share of the message's IDF mass a row matches. conversation_coverage: the share
-- matched by the candidates of the row's conversation together (a conversation about the asked-for
-- thing holds its answer somewhere).
drop function if exists mhq.interaction_lexical_candidates(text, uuid, uuid, int);
create function mhq.interaction_lexical_candidates(query_text text, agent_filter uuid, client_filter uuid, max_rows int)
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
         (select count(*) from (select 1 from interaction_postings p where p.%I = $3 and p.lexeme = u.l limit 1500) c)
       )::float8 as d
       from unnest($1::text[]) as u (l)) x', col)
    into lexemes, dfs using lexemes, kind, scope;
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

  return query execute format(
    'with rare_hits as materialized (
            select p.interaction_id as id, p.lexeme, q.idf,
                   q.idf * p.tf * ($5 + 1) / (p.tf + $5 * (1 - $6 + $6 * p.len / $7)) as part
              from unnest($1::text[], $2::float8[], $12::int[]) as q (lexeme, idf, cap)
              cross join lateral (
                select x.interaction_id, x.lexeme, x.tf, x.len from interaction_postings x
                 where x.%1$I = $8 and x.lexeme = q.lexeme and ($9::uuid is null or x.client_id = $9)
                 order by x.tf / greatest(x.len, 1) desc
                 limit q.cap) p),
          phase1 as materialized (
            select f.id, d.conversation_id
              from (select h.id from rare_hits h group by h.id order by sum(h.part) desc limit $13) f
              left join interaction_search_docs d on d.interaction_id = f.id),
          matches as materialized (
            select h.id, h.lexeme, h.idf, h.part, f.conversation_id from rare_hits h join phase1 f on f.id = h.id
            union all
            select p.interaction_id, p.lexeme, cq.idf,
                   cq.idf * p.tf * ($5 + 1) / (p.tf + $5 * (1 - $6 + $6 * p.len / $7)), f.conversation_id
              from phase1 f join interaction_postings p on p.interaction_id = f.id and p.lexeme = any($3::text[])
              join unnest($3::text[], $4::float8[]) as cq (lexeme, idf) on cq.lexeme = p.lexeme),
          scored as (
            select m.id, sum(m.part) as score, sum(m.idf) as matched, min(m.conversation_id::text)::uuid as conversation_id
              from matches m group by m.id),
          conversations as (
            select c.conversation_id, sum(c.idf) as matched
              from (select distinct m.conversation_id, m.lexeme, m.idf from matches m where m.conversation_id is not null) c
             group by c.conversation_id)
     select s.id, s.score::float8, (s.matched / $10)::float8, (coalesce(c.matched, s.matched) / $10)::float8
       from scored s left join conversations c on c.conversation_id = s.conversation_id
      order by 2 desc, s.id
      limit $11', col)
    using rare, rare_idf, common, common_idf, k1, b, avg_len, scope, client_filter, total_idf, max_rows, rare_cap, candidate_rows;
end
$$;
revoke all on function mhq.interaction_lexical_candidates(text, uuid, uuid, int) from public;
grant execute on function mhq.interaction_lexical_candidates(text, uuid, uuid, int) to mhq_app;

-- ── Interactions search: a turn scored as part of its conversation ──────────────────────────────
-- The best lexical and the nearest rows (at most 50 each, vectors of query_model only) are scored
-- together by a weighted sum of signals, each 0–1, divided by the sum of the positive weights so
-- that scores are 0–1:
--   1.5  BM25F with the conversation context / the best BM25F of the message
--   0.2  cosine similarity of the turn's own vector to the message's
--   1.0  cosine similarity of its context vector (its own, plus half of each neighbour's)
--   0.9  conversation coverage (see interaction_lexical_candidates)
--   0.45 the turn's speaker is named in the message
--   0.4  how much the turn says itself (distinct words / 20, at most 1)
--  −0.3  the turn is a question (the answer is seldom the question)
-- Weights were fitted on long real conversations and checked on conversations left out of the fit.
-- Security invoker: every row, neighbours included, is read through the caller's RLS.
drop function if exists public.search_interactions(text, vector, text, int, uuid, uuid, float8, int);
create function public.search_interactions(
  query_text text,
  query_embedding vector(1536),
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
  zero vector(1536) := array_fill(0::real, array[1536])::vector;
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

-- Interactions recorded before this migration are indexed again, in conversation order (each turn
-- takes its conversation from the turn before it).
select mhq.index_interaction(i.id) from interactions i order by i.occurred_at, i.id;
