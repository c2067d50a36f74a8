create or replace function mhq.caller_type() returns text
language sql stable as $$ select mhq.claims() ->> 'caller_type' $$;
