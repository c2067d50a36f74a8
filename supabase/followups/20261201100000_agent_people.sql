-- People already recorded: every agent's speakers, then the names its own memories mention, each
-- agent's in the order they were first recorded.
insert into agent_people (agent_id, name, source)
select s.agent_id, s.name, 'speaker' from (
  select distinct on (i.agent_id, lower(mhq.person_name(i.speaker))) i.agent_id, mhq.person_name(i.speaker) as name, i.occurred_at, i.seq
    from interactions i
   where mhq.person_name(i.speaker) is not null
   order by i.agent_id, lower(mhq.person_name(i.speaker)), i.occurred_at, i.seq
) s
order by s.agent_id, s.occurred_at, s.seq
on conflict do nothing;

insert into agent_people (agent_id, name, source)
select s.agent_id, s.name, 'memory' from (
  select distinct on (m.agent_id, lower(n.name)) m.agent_id, n.name, m.created_at, m.id
    from memories m
   cross join lateral mhq.names_in_text(m.title || E'\n' || m.content) n (name)
   where m.scope = 'agent'
   order by m.agent_id, lower(n.name), m.created_at, m.id
) s
order by s.agent_id, s.created_at, s.id
on conflict do nothing;
