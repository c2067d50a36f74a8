create or replace function mhq.hq_role() returns text
language sql stable as $$ select case when mhq.caller_type() = 'hq' then mhq.claims() ->> 'hq_role' end $$;
