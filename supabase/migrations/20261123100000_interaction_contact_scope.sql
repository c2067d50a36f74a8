-- An interaction names a contact only of its own client, and only one the writer can see: a field
-- agent cannot attach a message to another client's contact, and no caller can pair one client with
-- another client's contact. The service answers such a contact as missing (404); this policy refuses
-- the row again if a query ever gets it wrong.

-- Whether `p_contact_id` is a contact the caller can see (contacts_select applies: this function is
-- not security definer) and belongs to `p_client_id` (both may be HQ's own: null).
create function mhq.contact_of_client(p_contact_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select exists (select 1 from contacts c where c.id = p_contact_id and c.client_id is not distinct from p_client_id)
$$;

drop policy interactions_insert on interactions;
create policy interactions_insert on interactions for insert to mhq_app
  with check (
    agent_id = (select mhq.agent_id())
    and ((select mhq.is_internal_agent()) or ((select mhq.is_field_agent()) and client_id = (select mhq.client_id())))
    and (contact_id is null or mhq.contact_of_client(contact_id, client_id))
  );
