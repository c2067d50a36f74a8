-- Written by `npm run db:diff -- purge_notes_from_a_cursor` from supabase/schemas/: each function and view
-- below is its schema file as it stands, in full. To change one, change its schema file and generate a new
-- migration; never edit this one.
-- Changed: mhq.purge_expired_agent_notes.

drop function if exists mhq.purge_expired_agent_notes(timestamp with time zone, integer);

-- supabase/schemas/functions/mhq.purge_expired_agent_notes.sql
-- The cleanup: deletes notes past their expiry (as of `p_now`), in id order, at most `p_limit` of them
-- (null: all; the nightly consolidation deletes a backlog in short steps) and only those after
-- `p_after` (null: from the first; a dry run, whose steps roll back, goes on from where its last step
-- stopped), and answers how many and the last id it deleted. Callable by HQ admins and by system jobs
-- (no claims); it runs as the owner because callers cannot delete.
create or replace function mhq.purge_expired_agent_notes(p_now timestamptz default now(), p_limit integer default null, p_after uuid default null)
returns table (deleted integer, last_id uuid)
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if mhq.caller_type() is not null and not mhq.is_hq_admin() then
    raise exception 'only HQ admins and system jobs purge agent notes' using errcode = '42501';
  end if;
  return query
    with gone as (
      delete from agent_notes d
       where d.id in (select x.id from agent_notes x
                       where x.expires_at <= p_now and (p_after is null or x.id > p_after)
                       order by x.id limit p_limit for update)
      returning d.id
    )
    select count(*)::integer, (array_agg(gone.id order by gone.id desc))[1] from gone;
end
$$;

revoke all on function mhq.purge_expired_agent_notes(timestamp with time zone, integer, uuid) from public;
grant execute on function mhq.purge_expired_agent_notes(timestamp with time zone, integer, uuid) to mhq_app;
