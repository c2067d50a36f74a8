-- Nearest vectors of one model: a static statement per stored width, each walking its partial HNSW
-- index, so each keeps its plan; the planner settings force the walk (see ../README.md, "Plans").
create or replace function mhq.interaction_vector_candidates(
  query_embedding vector, query_model text, agent_filter uuid, client_filter uuid, max_rows int
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

revoke all on function mhq.interaction_vector_candidates(vector, text, uuid, uuid, integer) from public;
grant execute on function mhq.interaction_vector_candidates(vector, text, uuid, uuid, integer) to mhq_app;
