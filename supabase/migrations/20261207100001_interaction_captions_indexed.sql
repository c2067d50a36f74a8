-- Written by `npm run db:diff -- interaction_captions_indexed` from supabase/schemas/: each function and
-- view below is its schema file as it stands, in full. To change one, change its schema file and generate a
-- new migration; never edit this one.
-- Changed: mhq.index_interactions, mhq.interactions_redacted_trigger, public.search_interactions.
--
-- Could not be decided from the text alone (check these by hand):
-- - public.search_interactions: what it returns changed, so it is dropped and created again. A trigger,
--   policy, view or column default that uses it stops the drop: drop and create those in this migration
--   too (by hand).

drop function if exists public.search_interactions(text, vector, text, integer, uuid, uuid, integer);

-- supabase/schemas/functions/mhq.index_interactions.sql
-- (Re)writes the postings and document rows of these interactions, all at once: each one's BM25F
-- document is its own text with its attachments' captions (weight 1; mhq.interaction_text), the two
-- turns before it (0.5, 0.25), the two after it (0.3, 0.15; not counted in its length) and its day
-- (0.5). Each text involved is analysed once, however
-- many documents it is part of (a batch of turns of one conversation shares most of them).
-- Conversation labels follow in conversation order: a turn takes the label of the turn before it
-- unless that label started more than 24 hours earlier; a turn whose label changes (an earlier turn
-- arrived late, or bridged two runs) carries the rest of its old run with it. The document rows are
-- locked first, so two writers of the same rows take turns, each reading the neighbours anew.
create or replace function mhq.index_interactions(p_ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  v_ids uuid[];
  v_prev uuid[];
  v_prev2 uuid[];
  v_next uuid[];
  v_next2 uuid[];
  r record;
  conversation uuid;
  started timestamptz;
  old_conversation uuid;
begin
  insert into interaction_search_docs as d (interaction_id, agent_id, client_id, len)
  select i.id, i.agent_id, i.client_id, 0 from interactions i where i.id = any(p_ids)
   order by i.id
  on conflict (interaction_id) do update set len = d.len;

  -- the targets in conversation order, with their neighbours
  select coalesce(array_agg(n.id order by n.occurred_at, n.seq), '{}'),
         coalesce(array_agg(n.p1 order by n.occurred_at, n.seq), '{}'),
         coalesce(array_agg(n.p2 order by n.occurred_at, n.seq), '{}'),
         coalesce(array_agg(n.n1 order by n.occurred_at, n.seq), '{}'),
         coalesce(array_agg(n.n2 order by n.occurred_at, n.seq), '{}')
    into v_ids, v_prev, v_prev2, v_next, v_next2
    from (
      select i.id, i.occurred_at, i.seq, a.p1, a.n1,
             case when a.p1 is not null then mhq.interaction_neighbour(a.p1, -1) end as p2,
             case when a.n1 is not null then mhq.interaction_neighbour(a.n1, 1) end as n2
        from interactions i
       cross join lateral (select mhq.interaction_neighbour(i.id, -1) as p1, mhq.interaction_neighbour(i.id, 1) as n1) a
       where i.id = any(p_ids)
    ) n;

  with t as (
    select u.id, u.prev_id, u.prev2_id, u.next_id, u.next2_id
      from unnest(v_ids, v_prev, v_prev2, v_next, v_next2) as u (id, prev_id, prev2_id, next_id, next2_id)
  ),
  -- each text's lexemes, once
  own as (
    select x.id, w.lexeme, coalesce(array_length(w.positions, 1), 1)::float8 as n
      from interactions x, unnest(to_tsvector('english', mhq.interaction_text(x.content, x.attachments))) w
     where x.id in (select t.id from t union select t.prev_id from t union select t.prev2_id from t
                    union select t.next_id from t union select t.next2_id from t)
  ),
  terms as (
    select t.id, o.lexeme, f.w * o.n as tf, f.counted
      from t
     cross join lateral (values (t.id, 1.0::float8, true), (t.prev_id, 0.5::float8, true), (t.prev2_id, 0.25::float8, true),
                                (t.next_id, 0.3::float8, false), (t.next2_id, 0.15::float8, false)) as f (src, w, counted)
      join own o on o.id = f.src
    union all
    select t.id, w.lexeme, 0.5 * coalesce(array_length(w.positions, 1), 1), true
      from t join interactions x on x.id = t.id,
           unnest(to_tsvector('english', to_char(x.occurred_at at time zone 'UTC', 'FMDD FMMonth YYYY'))) w
  ),
  docs as (
    select g.id, g.lexeme, sum(g.tf)::real as tf, (sum(sum(g.tf) filter (where g.counted)) over (partition by g.id))::real as len
      from terms g group by g.id, g.lexeme
  ),
  stale as (
    delete from interaction_postings p
     where p.interaction_id in (select t.id from t)
       and not exists (select 1 from docs c where c.id = p.interaction_id and c.lexeme = p.lexeme)
  ),
  written as (
    insert into interaction_postings as p (interaction_id, lexeme, agent_id, client_id, tf, len)
    select c.id, c.lexeme, x.agent_id, x.client_id, c.tf, c.len
      from docs c join interactions x on x.id = c.id
     order by c.id, c.lexeme
    on conflict (interaction_id, lexeme) do update set tf = excluded.tf, len = excluded.len
      where p.tf is distinct from excluded.tf or p.len is distinct from excluded.len
  ),
  lengths as (
    select c.id, max(c.len) as len from docs c group by c.id
  ),
  own_counts as (
    select o.id, count(*)::int as n from own o group by o.id
  )
  update interaction_search_docs d
     set len = coalesce(l.len, 0), prev_id = t.prev_id, next_id = t.next_id, own_terms = coalesce(oc.n, 0)
    from t
    left join lengths l on l.id = t.id
    left join own_counts oc on oc.id = t.id
   where d.interaction_id = t.id;

  for r in
    select u.id, u.prev_id, x.occurred_at
      from unnest(v_ids, v_prev) with ordinality as u (id, prev_id, ord)
      join interactions x on x.id = u.id
     order by u.ord
  loop
    select d.conversation_id into old_conversation from interaction_search_docs d where d.interaction_id = r.id;
    conversation := r.id;
    started := r.occurred_at;
    if r.prev_id is not null then
      select d.conversation_id, d.conversation_started_at into conversation, started
        from interaction_search_docs d where d.interaction_id = r.prev_id;
      if conversation is null or started is null or started < r.occurred_at - interval '24 hours' then
        conversation := r.id;
        started := r.occurred_at;
      end if;
    end if;
    update interaction_search_docs d set conversation_id = conversation, conversation_started_at = started
     where d.interaction_id = r.id;
    -- an earlier turn arrived late (or bridged two runs): the rest of the run, at most a day of
    -- turns, takes the new label
    if old_conversation is not null and old_conversation <> conversation then
      update interaction_search_docs d set conversation_id = conversation, conversation_started_at = started
       where d.interaction_id in (select x.interaction_id from interaction_search_docs x
                                   where x.conversation_id = old_conversation order by x.interaction_id for update);
    end if;
  end loop;
end
$$;

revoke all on function mhq.index_interactions(uuid[]) from public;

-- supabase/schemas/functions/mhq.interactions_redacted_trigger.sql
-- The same when texts or captions change (redaction), and only then: an update of embeddings leaves them be.
create or replace function mhq.interactions_redacted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, g.agent_id as id
             from gone g join fresh f on f.id = g.id where (f.content, f.attachments) is distinct from (g.content, g.attachments)
           union
           select distinct 'client', g.client_id
             from gone g join fresh f on f.id = g.id where (f.content, f.attachments) is distinct from (g.content, g.attachments) and g.client_id is not null
           order by 1, 2) s;
  return null;
end
$$;

-- supabase/schemas/functions/public.search_interactions.sql
-- A conversations search takes its candidates from two lists, the BM25F ranking and the nearest
-- vectors (the best 40 of each), then reads each candidate row and scores it with every signal: its
-- conversation's coverage, its neighbours' vectors, the speaker and question tests.
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
  conversation_coverage float8,
  attachments jsonb
)
language plpgsql volatile security invoker
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count, 40);
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
  with found_rows as materialized (
    select i.id, i.agent_id, i.client_id, i.contact_id, i.channel, i.direction, i.speaker, i.content, i.occurred_at, i.created_at, i.attachments,
           lex_scores[p.lx] as bm25, lex_cover[p.lx] as cover, lex_conv[p.lx] as conv_cover, d.prev_id, d.next_id, d.own_terms,
           -- a vector is read back only for lexical hits the nearest rows did not include
           coalesce(vec_sims[p.vx], case when p.vx is null and query_embedding is not null and i.embedding_model = query_model
                                         then 1 - (i.embedding <=> query_embedding) end) as sim,
           coalesce(lex_scores[p.lx] / nullif(best, 0), 0) as lex_norm,
           (i.speaker <> '' and position(' ' || lower(regexp_replace(i.speaker, '[^[:alnum:]]+', ' ', 'g')) || ' ' in words) > 0) as named,
           (i.content ~ '\?\s*$') as question
      from interactions i
      -- each row's place in either list, looked up in the arrays
      cross join lateral (select array_position(lex_ids, i.id) as lx, array_position(vec_ids, i.id) as vx) p
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
         s.lex_norm::float8, coalesce(s.cover, 0)::float8, s.sim::float8, s.ctx_sim::float8, coalesce(s.conv_cover, 0)::float8,
         s.attachments
    from signals s
   order by 11 desc, s.id
   limit match_count;
end
$$;

revoke all on function public.search_interactions(text, vector, text, integer, uuid, uuid, integer) from public;
grant execute on function public.search_interactions(text, vector, text, integer, uuid, uuid, integer) to mhq_app;
