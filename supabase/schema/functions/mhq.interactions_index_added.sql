-- New turns, once per statement: each is indexed, and so are the two turns on each side of it whose
-- documents hold it — each such turn once, however many of the new turns it neighbours, and in
-- conversation order, so a turn's conversation label follows from the turn before it. A batch of
-- turns of one conversation thus costs one indexing per turn (plus up to four around the batch)
-- instead of up to five. Each conversation written to is locked first (mhq.conversation_lock_key),
-- in key order so that two statements never wait on each other crosswise; the neighbours are looked
-- up after the locks, so turns committed meanwhile are seen.
create or replace function mhq.interactions_index_added() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
declare
  k integer;
  r record;
begin
  for k in
    select distinct mhq.conversation_lock_key(a.agent_id, a.channel, a.contact_id, a.client_id, a.conversation_key)
      from added a order by 1
  loop
    perform pg_advisory_xact_lock(hashtext('mhq.conversation'), k);
  end loop;
  for r in
    with recursive around (id, step, hops) as (
      select a.id, 0, 0 from added a
      union all
      -- up to two turns before and two after each new one
      select n.id, s.step, w.hops + 1
        from around w
       cross join (values (-1), (1)) s (step)
       cross join lateral (select mhq.interaction_neighbour(w.id, s.step) as id) n
       where w.hops < 2 and (w.step = 0 or w.step = s.step) and n.id is not null
    )
    select i.id from interactions i
     where i.id in (select distinct w.id from around w)
     order by i.occurred_at, i.seq
  loop
    perform mhq.index_interaction(r.id);
  end loop;
  return null;
end
$$;

revoke all on function mhq.interactions_index_added() from public;
