-- Whether the caller may see rows of a contact belonging to `p_client_id` (null: HQ's own).
create or replace function mhq.in_contact_scope(p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_hq()
      or mhq.is_internal_agent()
      or (mhq.is_field_agent() and p_client_id is not null and p_client_id = mhq.client_id())
$$;
