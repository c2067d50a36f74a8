create or replace function mhq.is_hq() returns boolean
language sql stable as $$ select coalesce(mhq.hq_role() in ('admin', 'curator', 'viewer'), false) $$;
