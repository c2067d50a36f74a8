create or replace function mhq.is_kb_writer() returns boolean
language sql stable as $$
  select coalesce(mhq.hq_role() in ('admin', 'curator'), false)
      or (mhq.is_internal_agent() and coalesce(mhq.kb_access() = 'write', false))
$$;
