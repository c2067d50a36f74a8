-- New turns, once per statement: each agent's speakers, and the names its turns mention inside a
-- sentence (mhq.names_in_text), not yet among its people are added (see agent_people), in one
-- insert in key order so that concurrent statements never wait on each other crosswise (a name
-- that is both is recorded as a speaker, and a name only mentioned so far becomes a speaker). A batch's turns being stored in steps count when it is
-- published (mhq.publish_interaction_batch).
create or replace function mhq.record_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if not exists (select 1 from added a where a.batch_id is null) then
    return null;
  end if;
  insert into agent_people (agent_id, name, source)
  select d.agent_id, d.name, d.source
    from (select distinct on (x.agent_id, lower(x.name)) x.agent_id, x.name, x.source
            from (select a.agent_id, mhq.person_name(a.speaker) as name, 'speaker' as source, a.occurred_at, a.seq
                    from added a where a.batch_id is null
                  union all
                  select a.agent_id, n.name, 'mention', a.occurred_at, a.seq
                    from added a cross join lateral mhq.names_in_text(a.content, false) n (name)
                   where a.batch_id is null) x
           where x.name is not null
           order by x.agent_id, lower(x.name), x.source = 'mention', x.occurred_at, x.seq) d
   where not exists (select 1 from agent_people p
                      where p.agent_id = d.agent_id and lower(p.name) = lower(d.name) and (p.source <> 'mention' or d.source = 'mention'))
   order by d.agent_id, lower(d.name)
  on conflict (agent_id, lower(name)) do update set source = excluded.source
   where agent_people.source = 'mention' and excluded.source <> 'mention';
  return null;
end
$$;

revoke all on function mhq.record_interaction_people() from public;
