-- Which of these caller message ids (externalId) the calling agent's turns already hold, and how:
-- 'stored' by a visible turn (the retry is answered with it), 'staging' by a batch still being
-- stored, whether its turn is written yet or only named by the batch, or 'abandoned' by a batch
-- given up whose turns are not deleted yet (a batch still 'staging' past its lease counts as
-- abandoned). A write must wait until no id of its own is 'staging' or 'abandoned', so that a retry
-- racing its first attempt stores every turn once. Security definer: specialists may not read
-- interactions; only the caller's own ids are answered (its agent id from its claims).
create or replace function mhq.interaction_external_id_holders(p_external_ids text[])
returns table (external_id text, id uuid, state text)
language sql stable security definer
set search_path = public, pg_temp
as $$
  select i.external_id, i.id,
         case when b.id is null or b.state = 'published' then 'stored'
              when b.state = 'staging' and b.lease_until >= now() then 'staging'
              else 'abandoned' end
    from interactions i
    left join interaction_batches b on b.id = i.batch_id
   where mhq.agent_id() is not null and i.agent_id = mhq.agent_id() and i.external_id = any(p_external_ids)
  union all
  select x.external_id, null::uuid, case when b.lease_until >= now() then 'staging' else 'abandoned' end
    from interaction_batches b
   cross join lateral unnest(b.external_ids) as x (external_id)
   where mhq.agent_id() is not null and b.agent_id = mhq.agent_id() and b.state = 'staging'
     and b.external_ids && p_external_ids and x.external_id = any(p_external_ids)
$$;

revoke all on function mhq.interaction_external_id_holders(text[]) from public;
grant execute on function mhq.interaction_external_id_holders(text[]) to mhq_app;
