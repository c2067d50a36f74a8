-- Whether an agent may write a row in its own name for `p_client_id`.
create or replace function mhq.can_write_agent_log(p_agent_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_agent()
     and p_agent_id = mhq.agent_id()
     and (mhq.is_internal_agent() or (p_client_id is not null and p_client_id = mhq.client_id()))
$$;
