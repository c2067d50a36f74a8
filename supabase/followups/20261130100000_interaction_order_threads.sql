-- Conversations whose turns share a time were indexed in id order: each of their turns is indexed
-- again, in the order they were recorded, with the neighbour rules of this release.
do $$
declare
  r record;
begin
  for r in
    select i.id
      from interactions i
     where i.agent_id in (select t.agent_id from interactions t group by t.agent_id, t.occurred_at having count(*) > 1)
     order by i.agent_id, i.occurred_at, i.seq
  loop
    perform mhq.index_interaction(r.id);
  end loop;
end
$$;
