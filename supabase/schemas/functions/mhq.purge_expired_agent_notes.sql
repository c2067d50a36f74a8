-- The cleanup: deletes notes past their expiry (as of `p_now`) and answers how many. Callable by
-- HQ admins and by system jobs (no claims); it runs as the owner because callers cannot delete.
create or replace function mhq.purge_expired_agent_notes(p_now timestamptz default now()) returns integer
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  n integer;
begin
  if mhq.caller_type() is not null and not mhq.is_hq_admin() then
    raise exception 'only HQ admins and system jobs purge agent notes' using errcode = '42501';
  end if;
  delete from agent_notes where expires_at <= p_now;
  get diagnostics n = row_count;
  return n;
end
$$;

revoke all on function mhq.purge_expired_agent_notes(timestamp with time zone) from public;
grant execute on function mhq.purge_expired_agent_notes(timestamp with time zone) to mhq_app;
