-- Deleted interactions (the opt-out erasure) take their words out of the statistics at once: the
-- statistics hold words, and an erased contact's must not outlive its conversations. The steps
-- that delete the turns of a batch given up before it was published (`mhq.discarding_batch` set
-- for their transaction) leave that to the next refresh: those turns were never shown to anyone,
-- and a refresh per step would hold the database far longer than the step.
create or replace function mhq.interactions_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if current_setting('mhq.discarding_batch', true) = 'on' then
    return null;
  end if;
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, g.agent_id as id from gone g
           union select distinct 'client', g.client_id from gone g where g.client_id is not null
           order by 1, 2) s;
  return null;
end
$$;
