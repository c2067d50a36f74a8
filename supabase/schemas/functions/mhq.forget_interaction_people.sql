-- Deleted turns (opt-out erasure, an agent's removal), once per statement: a speaker, or a name the
-- turns mentioned, that nothing the agent keeps names any more (a turn's speaker or text, its own
-- memories: mhq.agent_still_names) leaves its people, so an erased contact's name stops being a
-- trigger word. Turns of an agent being removed are skipped (its people go with it). Rows are
-- locked in id order.
create or replace function mhq.forget_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  delete from agent_people
   where id in (
     select p.id
       from agent_people p
       join (select distinct x.agent_id, lower(x.name) as n
               from (select g.agent_id, mhq.person_name(g.speaker) as name from gone g
                     union all
                     select g.agent_id, n.name from gone g cross join lateral mhq.names_in_text(g.content, false) n (name)) x
               join agents a on a.id = x.agent_id
              where x.name is not null) d
         on p.agent_id = d.agent_id and lower(p.name) = d.n
      where not mhq.agent_still_names(d.agent_id, p.name)
      order by p.id
        for update of p);
  return null;
end
$$;

revoke all on function mhq.forget_interaction_people() from public;
