create or replace function mhq.agent_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'agent_id', '')::uuid $$;
