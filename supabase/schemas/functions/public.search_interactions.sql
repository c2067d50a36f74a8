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
