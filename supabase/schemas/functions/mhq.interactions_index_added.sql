-- New turns, once per statement: each is indexed, and so are the two turns on each side of it whose
-- documents hold it — all in one mhq.index_interactions call, each such turn once however many of the
-- new turns it neighbours. A batch of turns of one conversation thus costs one indexing per turn
-- (plus up to four around the batch) instead of up to five, and each text is analysed once. Each conversation written to is locked first (mhq.conversation_lock_key),
-- in key order so that two statements never wait on each other crosswise; the neighbours are looked
-- up after the locks, so turns committed meanwhile are seen. Turns of a batch being stored in steps
-- are left out: the batch indexes them itself (mhq.index_interaction_batch) and the turns around
-- them once it is published.
create or replace function mhq.interactions_index_added() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
declare
  k integer;
begin
  if not exists (select 1 from added a where a.batch_id is null) then
    return null;
  end if;
  for k in
    select distinct mhq.conversation_lock_key(a.agent_id, a.channel, a.contact_id, a.client_id, a.conversation_key)
      from added a where a.batch_id is null order by 1
  loop
    perform pg_advisory_xact_lock(hashtext('mhq.conversation'), k);
  end loop;
  perform mhq.index_interactions(array(
    with recursive around (id, step, hops) as (
      select a.id, 0, 0 from added a where a.batch_id is null
      union all
      -- up to two turns before and two after each new one
      select n.id, s.step, w.hops + 1
        from around w
       cross join (values (-1), (1)) s (step)
       cross join lateral (select mhq.interaction_neighbour(w.id, s.step) as id) n
       where w.hops < 2 and (w.step = 0 or w.step = s.step) and n.id is not null
    )
    select distinct w.id from around w
  ));
  return null;
end
$$;

revoke all on function mhq.interactions_index_added() from public;
