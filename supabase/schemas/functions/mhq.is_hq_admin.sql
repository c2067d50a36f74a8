create or replace function mhq.is_hq_admin() returns boolean
language sql stable as $$ select coalesce(mhq.hq_role() = 'admin', false) $$;
