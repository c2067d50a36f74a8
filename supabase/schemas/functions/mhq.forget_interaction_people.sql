-- Deleted turns (opt-out erasure, an agent's removal), once per statement: a speaker the agent no
-- longer has any turn of leaves its people, so an erased contact's name stops being a trigger word.
-- Rows are locked in id order.
create or replace function mhq.forget_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  delete from agent_people
   where id in (
     select p.id
       from agent_people p
       join (select distinct g.agent_id, lower(mhq.person_name(g.speaker)) as n
               from gone g where mhq.person_name(g.speaker) is not null) d
         on p.agent_id = d.agent_id and lower(p.name) = d.n
      where p.source = 'speaker'
        and not exists (select 1 from interactions i
                         where i.agent_id = d.agent_id and lower(mhq.person_name(i.speaker)) = d.n)
      order by p.id
        for update of p);
  return null;
end
$$;

revoke all on function mhq.forget_interaction_people() from public;
