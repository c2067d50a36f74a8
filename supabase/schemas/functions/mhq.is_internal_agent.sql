create or replace function mhq.is_internal_agent() returns boolean
language sql stable as $$ select mhq.is_agent() and coalesce(mhq.agent_kind() = 'internal', false) $$;
