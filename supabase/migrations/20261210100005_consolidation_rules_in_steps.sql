-- Written by `npm run db:diff -- consolidation_rules_in_steps` from supabase/schemas/: each function and
-- view below is its schema file as it stands, in full. To change one, change its schema file and generate a
-- new migration; never edit this one.
-- Changed: mhq.purge_expired_agent_notes.

drop function if exists mhq.purge_expired_agent_notes(timestamp with time zone);

-- supabase/schemas/functions/mhq.purge_expired_agent_notes.sql
-- The cleanup: deletes notes past their expiry (as of `p_now`), at most `p_limit` of them (null: all;
-- the nightly consolidation deletes a backlog in short steps), and answers how many. Callable by
-- HQ admins and by system jobs (no claims); it runs as the owner because callers cannot delete.
create or replace function mhq.purge_expired_agent_notes(p_now timestamptz default now(), p_limit integer default null) returns integer
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  n integer;
begin
  if mhq.caller_type() is not null and not mhq.is_hq_admin() then
    raise exception 'only HQ admins and system jobs purge agent notes' using errcode = '42501';
  end if;
  delete from agent_notes d
   where d.id in (select x.id from agent_notes x where x.expires_at <= p_now order by x.id limit p_limit for update);
  get diagnostics n = row_count;
  return n;
end
$$;

revoke all on function mhq.purge_expired_agent_notes(timestamp with time zone, integer) from public;
grant execute on function mhq.purge_expired_agent_notes(timestamp with time zone, integer) to mhq_app;
