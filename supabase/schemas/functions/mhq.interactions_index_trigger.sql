-- A changed turn is indexed again, and so are the two turns on each side of it, whose documents hold
-- it (new turns: mhq.interactions_index_added, once per statement). Writes to one conversation take
-- turns (mhq.conversation_lock_key); the neighbours are looked up after the lock, so a turn
-- committed meanwhile is seen. Rows are indexed in conversation order.
create or replace function mhq.interactions_index_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
declare
  prev_id uuid;
  prev2_id uuid;
  next_id uuid;
  next2_id uuid;
begin
  perform pg_advisory_xact_lock(
    hashtext('mhq.conversation'),
    mhq.conversation_lock_key(new.agent_id, new.channel, new.contact_id, new.client_id, new.conversation_key)
  );
  prev_id := mhq.interaction_neighbour(new.id, -1);
  prev2_id := case when prev_id is not null then mhq.interaction_neighbour(prev_id, -1) end;
  next_id := mhq.interaction_neighbour(new.id, 1);
  next2_id := case when next_id is not null then mhq.interaction_neighbour(next_id, 1) end;
  perform mhq.index_interactions(array_remove(array[prev2_id, prev_id, new.id, next_id, next2_id], null));
  return null;
end
$$;
