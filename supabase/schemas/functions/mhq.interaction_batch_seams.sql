-- Where a published batch meets the rest of its conversations: of these turns of the batch, those
-- whose document no longer names the neighbours they have now (a turn written beside them, or
-- another batch published, while this one was hidden), and the turns outside the batch that are
-- now next to one of them. Their documents and those of the turns around them (mhq.interactions_around)
-- are written again. A job's (the owner's) function, run on a slice of a batch's turns at a time.
create or replace function mhq.interaction_batch_seams(p_batch uuid, p_ids uuid[])
returns uuid[]
language sql stable
set search_path = public, pg_temp
as $$
  with now_beside as (
    select i.id, d.prev_id, d.next_id, mhq.interaction_neighbour(i.id, -1) as p1, mhq.interaction_neighbour(i.id, 1) as n1
      from interactions i left join interaction_search_docs d on d.interaction_id = i.id
     where i.id = any(p_ids) and i.batch_id = p_batch
  ),
  seams as (
    select b.id from now_beside b where b.prev_id is distinct from b.p1 or b.next_id is distinct from b.n1
    union
    select x.id
      from now_beside b cross join lateral (values (b.p1), (b.n1)) x (id)
      join interactions o on o.id = x.id
     where o.batch_id is distinct from p_batch
  )
  select coalesce(array_agg(s.id), '{}') from seams s
$$;

revoke all on function mhq.interaction_batch_seams(uuid, uuid[]) from public;
