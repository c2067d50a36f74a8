create or replace function mhq.interaction_vector_exact(
  query_embedding vector(1536), query_model text, agent_filter uuid, client_filter uuid, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql stable security invoker
set plan_cache_mode = auto
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

revoke all on function mhq.interaction_vector_exact(vector, text, uuid, uuid, integer) from public;
grant execute on function mhq.interaction_vector_exact(vector, text, uuid, uuid, integer) to mhq_app;
