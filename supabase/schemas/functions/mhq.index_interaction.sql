-- (Re)writes one interaction's postings and document row (see mhq.index_interactions).
create or replace function mhq.index_interaction(p_id uuid)
returns void
language sql volatile security definer
set search_path = public, pg_temp
as $$
  select mhq.index_interactions(array[p_id])
$$;

revoke all on function mhq.index_interaction(uuid) from public;
