-- New turns, once per statement: each agent's speakers not yet among its people are added (see
-- agent_people), in key order so that concurrent statements never wait on each other crosswise.
-- A batch's turns being stored in steps count when it is published (mhq.publish_interaction_batch).
create or replace function mhq.record_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if not exists (select 1 from added a where a.batch_id is null) then
    return null;
  end if;
  insert into agent_people (agent_id, name, source)
  select d.agent_id, d.name, 'speaker'
    from (select distinct on (x.agent_id, lower(x.name)) x.agent_id, x.name
            from (select a.agent_id, mhq.person_name(a.speaker) as name, a.occurred_at, a.seq from added a where a.batch_id is null) x
           where x.name is not null
           order by x.agent_id, lower(x.name), x.occurred_at, x.seq) d
   where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
   order by d.agent_id, lower(d.name)
  on conflict do nothing;
  return null;
end
$$;

revoke all on function mhq.record_interaction_people() from public;
