-- These turns and the two turns on each side of each in its conversation, whose documents hold
-- them, in conversation order: what is indexed again when turns' neighbours change (as
-- mhq.interactions_index_added does for new turns).
create or replace function mhq.interactions_around(p_ids uuid[])
returns uuid[]
language sql stable
set search_path = public, pg_temp
as $$
  with recursive around (id, step, hops) as (
    select x.id, 0, 0 from unnest(p_ids) x (id)
    union all
    select n.id, s.step, w.hops + 1
      from around w
     cross join (values (-1), (1)) s (step)
     cross join lateral (select mhq.interaction_neighbour(w.id, s.step) as id) n
     where w.hops < 2 and (w.step = 0 or w.step = s.step) and n.id is not null
  )
  select coalesce(array_agg(i.id order by i.occurred_at, i.seq), '{}')
    from interactions i where i.id in (select a.id from around a)
$$;

revoke all on function mhq.interactions_around(uuid[]) from public;
