-- Whether `p_contact_id` is a contact the caller can see (contacts_select applies: this function is
-- not security definer) and belongs to `p_client_id` (both may be HQ's own: null).
create or replace function mhq.contact_of_client(p_contact_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select exists (select 1 from contacts c where c.id = p_contact_id and c.client_id is not distinct from p_client_id)
$$;
