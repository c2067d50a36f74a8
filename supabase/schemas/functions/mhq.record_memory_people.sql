-- New or rewritten memories of an agent's own (scope 'agent'), once per statement: the names their
-- title and content mention (mhq.names_in_text) join the agent's people. On a rewrite (a redaction,
-- an edit), a name the old text mentioned that none of the agent's memories mentions any more
-- leaves them. Rows are written in key order and deleted in id order.
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
        where p.source = 'memory'
          -- the word anywhere in the agent's memories, in any case: kept (names are letters only)
          and not exists (select 1 from memories m
                           where m.agent_id = d.agent_id and m.scope = 'agent'
                             and (m.title || E'\n' || m.content) ~* ('\m' || d.n || '\M'))
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
     where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
     order by d.agent_id, lower(d.name)
    on conflict do nothing;
  else
    insert into agent_people (agent_id, name, source)
    select d.agent_id, d.name, 'memory'
      from (select distinct on (f.agent_id, lower(n.name)) f.agent_id, n.name
              from fresh f
             cross join lateral mhq.names_in_text(f.title || E'\n' || f.content) n (name)
             where f.scope = 'agent'
             order by f.agent_id, lower(n.name), n.name) d
     where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
     order by d.agent_id, lower(d.name)
    on conflict do nothing;
  end if;
  return null;
end
$$;

revoke all on function mhq.record_memory_people() from public;
