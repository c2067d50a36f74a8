-- A turn's text rewritten (an opt-out erasure's redaction), once per row: a name it no longer
-- mentions leaves the agent's people when nothing the agent keeps names them any more
-- (mhq.agent_still_names), and a name it newly mentions joins them once the turn is visible
-- (written alone, or its batch published). Rows are locked in id order.
create or replace function mhq.reconsider_interaction_mentions() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  delete from agent_people
   where id in (
     select p.id
       from agent_people p
      where p.agent_id = new.agent_id
        and lower(p.name) in (select lower(o.name) from mhq.names_in_text(old.content, false) o (name)
                              except
                              select lower(n.name) from mhq.names_in_text(new.content, false) n (name))
        and not mhq.agent_still_names(new.agent_id, p.name)
      order by p.id
        for update of p);
  if new.batch_id is null or exists (select 1 from interaction_batches b where b.id = new.batch_id and b.state = 'published') then
    insert into agent_people (agent_id, name, source)
    select new.agent_id, d.name, 'mention'
      from (select distinct on (lower(n.name)) n.name from mhq.names_in_text(new.content, false) n (name) order by lower(n.name), n.name) d
     where not exists (select 1 from agent_people p where p.agent_id = new.agent_id and lower(p.name) = lower(d.name))
     order by lower(d.name)
    on conflict do nothing;
  end if;
  return null;
end
$$;

revoke all on function mhq.reconsider_interaction_mentions() from public;
