-- What a request served, recorded as access_events rows in the request's transaction (folded into
-- the counters later by mhq.fold_access_events). Security invoker: the rows are inserted as the caller, so
-- access_events_insert decides exactly as before (agents only, items they can read); the function
-- only keeps the insert's plan, with its policy checks, between calls.
create or replace function mhq.record_access(memory_ids uuid[], knowledge_ids uuid[])
returns void
language plpgsql volatile security invoker
set search_path = public, pg_temp
as $$
begin
  if cardinality(memory_ids) > 0 then
    insert into access_events (kind, item_id) select 'memory', unnest(memory_ids);
  end if;
  if cardinality(knowledge_ids) > 0 then
    insert into access_events (kind, item_id) select 'knowledge', unnest(knowledge_ids);
  end if;
end
$$;

revoke all on function mhq.record_access(uuid[], uuid[]) from public;
grant execute on function mhq.record_access(uuid[], uuid[]) to mhq_app;
