create or replace function mhq.current_actor_name() returns text
language sql stable as $$ select coalesce(mhq.claims() ->> 'name', '') $$;
