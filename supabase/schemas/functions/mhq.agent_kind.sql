create or replace function mhq.agent_kind() returns text
language sql stable as $$ select mhq.claims() ->> 'agent_kind' $$;
