-- Whether the caller may read a row an agent wrote: its author, or a manager/orchestrator in scope.
create or replace function mhq.can_read_agent_log(p_agent_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_hq()
      or (mhq.is_agent() and p_agent_id = mhq.agent_id())
      or (mhq.agent_role() in ('manager', 'orchestrator') and mhq.in_contact_scope(p_client_id) and mhq.is_agent())
$$;
