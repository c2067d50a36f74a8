create or replace function mhq.hq_user_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'hq_user_id', '')::uuid $$;
