-- The turn before (step -1) or after (step 1) an interaction in its conversation, in (occurred_at,
-- seq) order: the time it happened, then the order it was recorded in. A turn of the caller's own
-- thread (conversation_key) has its neighbours in that thread, at any distance in time; any other
-- turn in the conversation inferred from agent, channel, contact and client, each turn at most
-- mhq.conversation_gap() from the one before. Either way only among turns of the same client (or,
-- for an HQ-internal turn, without one): a turn's ranking context — its document's neighbour text,
-- its neighbours' vectors, its conversation's coverage — may hold only text that everyone who may
-- read the turn may read, and a client's field agents read that client's turns only. Turns of a
-- batch still being stored are neighbours only of turns of the same batch
-- (mhq.hidden_interaction_batches). PL/pgSQL, so each branch keeps its own cached plan down its
-- index (interactions_thread_idx, interactions_conversation_idx).
create or replace function mhq.interaction_neighbour(p_id uuid, step int)
returns uuid
language plpgsql stable
set search_path = public, pg_temp
as $$
declare
  x record;
  found_id uuid;
  hidden uuid[];
begin
  select i.id, i.agent_id, i.channel, coalesce(i.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) as contact,
         coalesce(i.client_id, '00000000-0000-0000-0000-000000000000'::uuid) as client, i.occurred_at, i.seq,
         i.conversation_key, i.batch_id
    into x from interactions i where i.id = p_id;
  if not found then
    return null;
  end if;
  hidden := array_remove(mhq.hidden_interaction_batches(), x.batch_id);
  if x.conversation_key is not null then
    if step < 0 then
      select p.id into found_id from interactions p
       where p.agent_id = x.agent_id and p.conversation_key = x.conversation_key
         and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
         and (p.occurred_at, p.seq) < (x.occurred_at, x.seq)
         and (p.batch_id is null or p.batch_id <> all(hidden))
       order by p.occurred_at desc, p.seq desc
       limit 1;
    else
      select p.id into found_id from interactions p
       where p.agent_id = x.agent_id and p.conversation_key = x.conversation_key
         and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
         and (p.occurred_at, p.seq) > (x.occurred_at, x.seq)
         and (p.batch_id is null or p.batch_id <> all(hidden))
       order by p.occurred_at, p.seq
       limit 1;
    end if;
  elsif step < 0 then
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel and p.conversation_key is null
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.seq) < (x.occurred_at, x.seq) and p.occurred_at >= x.occurred_at - mhq.conversation_gap()
       and (p.batch_id is null or p.batch_id <> all(hidden))
     order by p.occurred_at desc, p.seq desc
     limit 1;
  else
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel and p.conversation_key is null
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.seq) > (x.occurred_at, x.seq) and p.occurred_at <= x.occurred_at + mhq.conversation_gap()
       and (p.batch_id is null or p.batch_id <> all(hidden))
     order by p.occurred_at, p.seq
     limit 1;
  end if;
  return found_id;
end
$$;
