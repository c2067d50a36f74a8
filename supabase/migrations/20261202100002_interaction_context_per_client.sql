-- Written by `npm run db:diff -- interaction_context_per_client` from supabase/schemas/: each function and
-- view below is its schema file as it stands, in full. To change one, change its schema file and generate a
-- new migration; never edit this one.
-- Changed: mhq.interaction_neighbour.

-- supabase/schemas/functions/mhq.interaction_neighbour.sql
-- The turn before (step -1) or after (step 1) an interaction in its conversation, in (occurred_at,
-- seq) order: the time it happened, then the order it was recorded in. A turn of the caller's own
-- thread (conversation_key) has its neighbours in that thread, at any distance in time; any other
-- turn in the conversation inferred from agent, channel, contact and client, each turn at most
-- mhq.conversation_gap() from the one before. Either way only among turns of the same client (or,
-- for an HQ-internal turn, without one): a turn's ranking context — its document's neighbour text,
-- its neighbours' vectors, its conversation's coverage — may hold only text that everyone who may
-- read the turn may read, and a client's field agents read that client's turns only. PL/pgSQL, so
-- each branch keeps its own cached plan down its index (interactions_thread_idx,
-- interactions_conversation_idx).
create or replace function mhq.interaction_neighbour(p_id uuid, step int)
returns uuid
language plpgsql stable
set search_path = public, pg_temp
as $$
declare
  x record;
  found_id uuid;
begin
  select i.id, i.agent_id, i.channel, coalesce(i.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) as contact,
         coalesce(i.client_id, '00000000-0000-0000-0000-000000000000'::uuid) as client, i.occurred_at, i.seq,
         i.conversation_key
    into x from interactions i where i.id = p_id;
  if not found then
    return null;
  end if;
  if x.conversation_key is not null then
    if step < 0 then
      select p.id into found_id from interactions p
       where p.agent_id = x.agent_id and p.conversation_key = x.conversation_key
         and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
         and (p.occurred_at, p.seq) < (x.occurred_at, x.seq)
       order by p.occurred_at desc, p.seq desc
       limit 1;
    else
      select p.id into found_id from interactions p
       where p.agent_id = x.agent_id and p.conversation_key = x.conversation_key
         and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
         and (p.occurred_at, p.seq) > (x.occurred_at, x.seq)
       order by p.occurred_at, p.seq
       limit 1;
    end if;
  elsif step < 0 then
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel and p.conversation_key is null
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.seq) < (x.occurred_at, x.seq) and p.occurred_at >= x.occurred_at - mhq.conversation_gap()
     order by p.occurred_at desc, p.seq desc
     limit 1;
  else
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel and p.conversation_key is null
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.seq) > (x.occurred_at, x.seq) and p.occurred_at <= x.occurred_at + mhq.conversation_gap()
     order by p.occurred_at, p.seq
     limit 1;
  end if;
  return found_id;
end
$$;

-- Data move (written by hand). An internal agent's thread (conversation_key) may hold turns of several
-- clients and HQ-internal ones, and until now a turn's neighbours were taken from the whole thread:
-- its document held the other clients' or HQ's text, and its conversation label spanned them. Each
-- turn of such a thread is indexed again — its label cleared first, so that no label is carried from
-- one client's turns to another's — one client's part of the thread after the other, in conversation
-- order; then the statistics of every agent and client concerned are rebuilt, since they count the
-- words the documents held.
do $$
declare
  turns uuid[];
  turn uuid;
begin
  select coalesce(array_agg(i.id order by i.agent_id, i.conversation_key,
                            coalesce(i.client_id, '00000000-0000-0000-0000-000000000000'::uuid), i.occurred_at, i.seq), '{}')
    into turns
    from interactions i
   where i.conversation_key is not null
     and (i.agent_id, i.conversation_key) in (
           select t.agent_id, t.conversation_key from interactions t
            where t.conversation_key is not null
            group by t.agent_id, t.conversation_key
           having count(distinct coalesce(t.client_id, '00000000-0000-0000-0000-000000000000'::uuid)) > 1);
  update interaction_search_docs d set conversation_id = null, conversation_started_at = null
   where d.interaction_id = any(turns);
  foreach turn in array turns loop
    perform mhq.index_interaction(turn);
  end loop;
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, i.agent_id as id from interactions i where i.id = any(turns)
           union
           select distinct 'client', i.client_id from interactions i where i.id = any(turns) and i.client_id is not null
           order by 1, 2) s;
end
$$;
