create or replace function mhq.current_actor_id() returns uuid
language sql stable as $$
  select case when mhq.caller_type() = 'agent' then mhq.agent_id() else mhq.hq_user_id() end
$$;
