-- Whether an interaction may be cited as a suggestion's source: same client as the contact, and not
-- logged against another contact. Security definer because specialists write interactions but may
-- not read them back (interactions_select); it reveals only this yes/no, for contacts in scope.
create or replace function mhq.interaction_fits_contact(p_interaction_id uuid, p_contact_id uuid) returns boolean
language sql stable security definer set search_path = public, pg_temp as $$
  select exists (
    select 1
      from interactions i
      join contacts c on c.id = p_contact_id
     where i.id = p_interaction_id
       and mhq.in_contact_scope(c.client_id)
       and (i.contact_id = c.id or (i.contact_id is null and i.client_id is not distinct from c.client_id))
  )
$$;

revoke all on function mhq.interaction_fits_contact(uuid, uuid) from public;
grant execute on function mhq.interaction_fits_contact(uuid, uuid) to mhq_app;
