create or replace function mhq.agent_role() returns text
language sql stable as $$ select mhq.claims() ->> 'agent_role' $$;
