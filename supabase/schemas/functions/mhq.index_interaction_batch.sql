-- Indexes turns of the caller's own batch while it is being stored (one step of it): their
-- postings, documents and conversation labels, as mhq.index_interactions does for every new turn.
-- Their neighbours are the visible turns and the batch's own (mhq.interaction_neighbour); the
-- visible turns around them are indexed again once the batch is published. Security definer (the
-- indexing tables are the database's own); only ids of a batch of the caller's that is still
-- 'staging' are indexed.
create or replace function mhq.index_interaction_batch(p_batch uuid, p_ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
begin
  if not exists (select 1 from interaction_batches b
                  where b.id = p_batch and b.state = 'staging' and b.agent_id = mhq.agent_id()) then
    raise exception 'This batch is no longer being stored' using errcode = 'MHQ10';
  end if;
  perform mhq.index_interactions(array(select i.id from interactions i where i.id = any(p_ids) and i.batch_id = p_batch));
end
$$;

revoke all on function mhq.index_interaction_batch(uuid, uuid[]) from public;
grant execute on function mhq.index_interaction_batch(uuid, uuid[]) to mhq_app;
