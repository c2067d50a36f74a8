-- Memories: an agent's own, or the team's.
create or replace function public.search_memories(
  query_text text,
  query_embedding vector(1536),
  query_model text,
  match_count int,
  memory_scope text default 'agent',
  owner_id uuid default null,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0,
  exact_scan_max int default 300,
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
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql volatile security invoker
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count * 2, 20);
  own boolean := memory_scope = 'agent';
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
begin
  if memory_scope not in ('agent', 'team') then
    raise exception 'memory_scope must be agent or team' using errcode = '22023';
  end if;
  if own and owner_id is null then
    raise exception 'owner_id is required for agent-scope memories' using errcode = '22023';
  end if;
  select coalesce(array_agg(c.id order by c.score desc, c.id), '{}'), coalesce(array_agg(c.score order by c.score desc, c.id), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc, c.id), '{}')
    into lex_ids, lex_scores, lex_cover
    from mhq.memory_lexical_candidates(query_text, memory_scope, owner_id, pool) c;
  best := coalesce(lex_scores[1], 0);

  if query_embedding is not null and query_model is not null then
    if mhq.memory_corpus_size(memory_scope, owner_id) <= exact_scan_max then
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.memory_vector_exact(query_embedding, query_model, memory_scope, owner_id, as_of, pool) n
       where 1 - n.distance >= min_similarity;
    else
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.memory_vector_candidates(query_embedding, query_model, memory_scope, owner_id, as_of, pool) n
       where 1 - n.distance >= min_similarity;
    end if;
  end if;

  return query
  with found_rows as (
    -- a vector is read back only for lexical hits the nearest rows did not include
    select m.*, lex_scores[p.lx] as bm25, lex_cover[p.lx] as cover, p.lx::bigint as lex_rank, p.vx::bigint as vec_rank,
           coalesce(vec_sims[p.vx], case when p.vx is null and query_embedding is not null and m.embedding_model = query_model
                                         then 1 - (m.embedding <=> query_embedding) end) as sim
      from memories m
      -- each row's place in either list (its rank there), looked up in the arrays
      cross join lateral (select array_position(lex_ids, m.id) as lx, array_position(vec_ids, m.id) as vx) p
     -- the candidates' filters once more, on the rows as RLS lets the caller read them
     where m.id = any (lex_ids || vec_ids)
       and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
       and (m.status = 'active' or (own and m.status = 'resolved'))
       and (m.expires_at is null or m.expires_at > as_of)
  )
  select r.id, r.agent_id, r.scope, r.tier, r.category, r.title, r.content, r.tags, r.confidence, r.created_by_name,
         r.occurred_at, r.created_at,
         (lexical_weight * coalesce(r.bm25 / nullif(best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(best, 0), 0)::float8, coalesce(r.cover, 0)::float8, r.sim::float8, r.lex_rank, r.vec_rank
    from found_rows r
   order by 13 desc, r.id
   limit match_count;
end
$$;

revoke all on function public.search_memories(text, vector, text, integer, text, uuid, double precision, double precision, integer, timestamp with time zone) from public;
grant execute on function public.search_memories(text, vector, text, integer, text, uuid, double precision, double precision, integer, timestamp with time zone) to mhq_app;
