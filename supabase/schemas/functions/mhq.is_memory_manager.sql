-- A manager agent (internal or field): the memory manager, who alone writes canonical memory among agents.
create or replace function mhq.is_memory_manager() returns boolean
language sql stable as $$ select mhq.is_agent() and coalesce(mhq.agent_role() = 'manager', false) $$;
