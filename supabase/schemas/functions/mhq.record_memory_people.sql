-- New or rewritten memories of an agent's own (scope 'agent'), once per statement: the names their
-- title and content mention (mhq.names_in_text) join the agent's people (a name only its turns had
-- mentioned becomes one its memories mention, heard wherever it is written). On a rewrite (a redaction,
-- an edit), a name the old text mentioned that nothing of the agent's names any more (its memories,
-- its turns: mhq.agent_still_names) leaves them. Rows are written in key order and deleted in id order.
create or replace function mhq.record_memory_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_op = 'UPDATE' then
    delete from agent_people
     where id in (
       select p.id
         from agent_people p
         join (select distinct g.agent_id, lower(n.name) as n
                 from gone g
                 join fresh f on f.id = g.id and (f.title, f.content) is distinct from (g.title, g.content)
                cross join lateral mhq.names_in_text(g.title || E'\n' || g.content) n (name)
                where g.scope = 'agent') d
           on p.agent_id = d.agent_id and lower(p.name) = d.n
        -- kept while the agent's memories (in any case) or its turns still name them
        where not mhq.agent_still_names(d.agent_id, p.name)
        order by p.id
          for update of p);
    insert into agent_people (agent_id, name, source)
    select d.agent_id, d.name, 'memory'
      from (select distinct on (f.agent_id, lower(n.name)) f.agent_id, n.name
              from fresh f
              join gone g on g.id = f.id and (g.title, g.content) is distinct from (f.title, f.content)
             cross join lateral mhq.names_in_text(f.title || E'\n' || f.content) n (name)
             where f.scope = 'agent'
             order by f.agent_id, lower(n.name), n.name) d
     where not exists (select 1 from agent_people p
                        where p.agent_id = d.agent_id and lower(p.name) = lower(d.name) and p.source <> 'mention')
     order by d.agent_id, lower(d.name)
    on conflict (agent_id, lower(name)) do update set source = excluded.source where agent_people.source = 'mention';
  else
    insert into agent_people (agent_id, name, source)
    select d.agent_id, d.name, 'memory'
      from (select distinct on (f.agent_id, lower(n.name)) f.agent_id, n.name
              from fresh f
             cross join lateral mhq.names_in_text(f.title || E'\n' || f.content) n (name)
             where f.scope = 'agent'
             order by f.agent_id, lower(n.name), n.name) d
     where not exists (select 1 from agent_people p
                        where p.agent_id = d.agent_id and lower(p.name) = lower(d.name) and p.source <> 'mention')
     order by d.agent_id, lower(d.name)
    on conflict (agent_id, lower(name)) do update set source = excluded.source where agent_people.source = 'mention';
  end if;
  return null;
end
$$;

revoke all on function mhq.record_memory_people() from public;
