-- Makes the caller's knowledge import visible, every entry of it at once: one short statement after
-- every entry was written and indexed in steps. Its row goes; its entries stay marked with it (no
-- reader hides them any more). Refused (MHQ10) once the import is no longer being written (given up:
-- its lease ran out). Answers the number of entries published.
create or replace function mhq.publish_knowledge_import(p_import uuid)
returns integer
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  published integer;
begin
  delete from knowledge_imports i
   where i.id = p_import and i.state = 'staging' and mhq.is_kb_writer()
     and i.actor_type = mhq.current_actor_type() and i.actor_id is not distinct from mhq.current_actor_id();
  if not found then
    raise exception 'This import is no longer being stored' using errcode = 'MHQ10';
  end if;
  select count(*) into published from knowledge_entries k where k.import_id = p_import;
  return published;
end
$$;

revoke all on function mhq.publish_knowledge_import(uuid) from public;
grant execute on function mhq.publish_knowledge_import(uuid) to mhq_app;
