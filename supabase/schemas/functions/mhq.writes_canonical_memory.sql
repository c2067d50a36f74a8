-- Who writes canonical memory (contacts, facts) directly: manager agents and HQ admins.
create or replace function mhq.writes_canonical_memory() returns boolean
language sql stable as $$ select mhq.is_hq_admin() or mhq.is_memory_manager() $$;
