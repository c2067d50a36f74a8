-- Rows that hang off a contact carry its client_id (RLS and listings read it); this copies it from
-- the contact so a caller can never file a row under another client. Security definer: it must
-- see the contact even when the caller cannot (the policies then refuse the row).
create or replace function mhq.copy_contact_client() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  select c.client_id into new.client_id from contacts c where c.id = new.contact_id;
  return new;
end
$$;
