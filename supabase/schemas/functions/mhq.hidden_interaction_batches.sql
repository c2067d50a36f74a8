-- The batches of interactions no reader may see yet: those still being stored in steps ('staging')
-- and those given up ('abandoned', deleted in steps). A batch's turns become visible at once when
-- its row turns 'published' (mhq.publish_interaction_batch). Few rows at any time, so readers
-- evaluate it once per statement: `batch_id <> all ((select mhq.hidden_interaction_batches())::uuid[])`.
create or replace function mhq.hidden_interaction_batches()
returns uuid[]
language sql stable security definer
set search_path = public, pg_temp
as $$
  select coalesce(array_agg(b.id), '{}') from interaction_batches b where b.state <> 'published'
$$;

revoke all on function mhq.hidden_interaction_batches() from public;
grant execute on function mhq.hidden_interaction_batches() to mhq_app;
