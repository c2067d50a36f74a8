create or replace function mhq.client_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'client_id', '')::uuid $$;
