-- HQ decides the rows of no client that a field manager's opt-out left are about someone else (or
-- were already handled): the name, phone and email kept for finishing the erasure are deleted, and
-- HQ's rows stay as they are. HQ admins and internal managers only, as for finishing it; true when
-- there was something to drop.
create or replace function mhq.keep_hq_mentions(p_contact_id uuid) returns boolean
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if not mhq.writes_canonical_memory() or mhq.is_field_agent() then
    raise exception 'only HQ admins and internal memory managers finish an erasure for HQ' using errcode = '42501';
  end if;
  delete from contact_hq_erasures where contact_id = p_contact_id;
  return found;
end
$$;

revoke all on function mhq.keep_hq_mentions(uuid) from public;
grant execute on function mhq.keep_hq_mentions(uuid) to mhq_app;
