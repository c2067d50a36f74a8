-- Which of these entries the caller's knowledge import still being written holds: its entries are
-- hidden from every reader, the writer included, until it is published, so the import learns here
-- which of its entries were written (a title taken meanwhile skips one). Security definer; only the
-- caller's own import that is still 'staging'.
create or replace function mhq.knowledge_import_written(p_import uuid, p_ids uuid[])
returns uuid[]
language sql stable security definer
set search_path = public, pg_temp
as $$
  select coalesce(array_agg(k.id), '{}')
    from knowledge_entries k
   where k.id = any(p_ids) and k.import_id = p_import
     and exists (select 1 from knowledge_imports i
                  where i.id = p_import and i.state = 'staging' and mhq.is_kb_writer()
                    and i.actor_type = mhq.current_actor_type() and i.actor_id is not distinct from mhq.current_actor_id())
$$;

revoke all on function mhq.knowledge_import_written(uuid, uuid[]) from public;
grant execute on function mhq.knowledge_import_written(uuid, uuid[]) to mhq_app;
