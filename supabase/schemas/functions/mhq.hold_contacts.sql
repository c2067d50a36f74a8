-- Holds contacts for a review: a key-share lock on each of `p_ids` the caller may see, taken in id
-- order, returning the ids it holds. Deciding a suggestion takes its contact first, then the
-- suggestion, then the fact — the order an opt-out erasure takes them in (the contact FOR UPDATE,
-- then its suggestions and facts) — so a review and an erasure of the same contact wait for each
-- other instead of deadlocking. With `p_skip_locked` a contact held by an erasure in progress is
-- left out instead of waited for (the manager pass: that erasure is about to delete its
-- suggestions). Runs as the owner because reviewers such as curators may not update contacts, which
-- a row lock would otherwise require; the caller's scope is checked here.
create or replace function mhq.hold_contacts(p_ids uuid[], p_skip_locked boolean) returns setof uuid
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if p_skip_locked then
    return query
      select c.id from contacts c
       where c.id = any (p_ids) and mhq.in_contact_scope(c.client_id)
       order by c.id
         for key share skip locked;
  else
    return query
      select c.id from contacts c
       where c.id = any (p_ids) and mhq.in_contact_scope(c.client_id)
       order by c.id
         for key share;
  end if;
end
$$;

revoke all on function mhq.hold_contacts(uuid[], boolean) from public;
grant execute on function mhq.hold_contacts(uuid[], boolean) to mhq_app;
