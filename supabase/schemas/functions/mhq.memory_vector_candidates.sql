-- Nearest vectors of one model: a static statement per stored width, each walking its partial HNSW
-- index, so each keeps its plan; the planner settings force the walk (see ../README.md, "Plans").
create or replace function mhq.memory_vector_candidates(
  query_embedding vector, query_model text, memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
set hnsw.iterative_scan = relaxed_order
set plan_cache_mode = force_generic_plan
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

revoke all on function mhq.memory_vector_candidates(vector, text, text, uuid, timestamp with time zone, integer) from public;
grant execute on function mhq.memory_vector_candidates(vector, text, text, uuid, timestamp with time zone, integer) to mhq_app;
