-- An agent with any memory access at all: isolated agents (code, deploy, migrations) have none.
create or replace function mhq.is_agent() returns boolean
language sql stable as $$
  select coalesce(mhq.caller_type() = 'agent' and mhq.agent_role() <> 'isolated', false)
$$;
