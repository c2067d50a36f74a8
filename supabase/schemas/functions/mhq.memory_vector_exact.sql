create or replace function mhq.memory_vector_exact(
  query_embedding vector(1536), query_model text, memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql stable security invoker
set plan_cache_mode = force_generic_plan
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

revoke all on function mhq.memory_vector_exact(vector, text, text, uuid, timestamp with time zone, integer) from public;
grant execute on function mhq.memory_vector_exact(vector, text, text, uuid, timestamp with time zone, integer) to mhq_app;
