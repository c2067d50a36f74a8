-- An opt-out erasure must leave nothing about the contact, even when a write linked to the
-- contact runs at the same moment. The services check `opt_out` first, but that read may predate
-- an erasure still in progress: the erasure (mhq.erase_contact, which locks the contact row FOR
-- UPDATE) would delete what it can see, and the other write would commit afterwards.
--
-- This trigger re-reads the contact with a row lock before any row naming it is stored. The lock
-- waits for an erasure in progress and then sees its result, so the write is refused (SQLSTATE
-- MHQ09, answered 409). A write that gets the lock first makes the erasure wait until it commits,
-- and the erasure then deletes it like any other.
create or replace function mhq.refuse_opted_out_contact() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  v_opt_out boolean;
begin
  if new.contact_id is null then
    return new;
  end if;
  select c.opt_out into v_opt_out from contacts c where c.id = new.contact_id for key share;
  if coalesce(v_opt_out, false) then
    raise exception 'This contact opted out; nothing more is stored about them' using errcode = 'MHQ09';
  end if;
  return new;
end
$$;

revoke all on function mhq.refuse_opted_out_contact() from public;
