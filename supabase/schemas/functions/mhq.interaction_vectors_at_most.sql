-- Whether one agent's or one client's conversations hold at most `cap` vectors: read from the
-- conversations' statistics when they exist (they trail writes by a moment, which only moves the
-- choice between an exact ranking and the HNSW walk), counted up to cap + 1 otherwise.
create or replace function mhq.interaction_vectors_at_most(cap int, agent_filter uuid, client_filter uuid)
returns boolean
language plpgsql stable security invoker
set plan_cache_mode = auto
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

revoke all on function mhq.interaction_vectors_at_most(integer, uuid, uuid) from public;
grant execute on function mhq.interaction_vectors_at_most(integer, uuid, uuid) to mhq_app;
