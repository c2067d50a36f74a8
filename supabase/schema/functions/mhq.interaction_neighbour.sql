-- The turn before (step -1) or after (step 1) an interaction in its conversation. PL/pgSQL, so each
-- direction runs its own cached plan down interactions_conversation_idx.
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
         coalesce(i.client_id, '00000000-0000-0000-0000-000000000000'::uuid) as client, i.occurred_at
    into x from interactions i where i.id = p_id;
  if not found then
    return null;
  end if;
  if step < 0 then
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.id) < (x.occurred_at, x.id) and p.occurred_at >= x.occurred_at - mhq.conversation_gap()
     order by p.occurred_at desc, p.id desc
     limit 1;
  else
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.id) > (x.occurred_at, x.id) and p.occurred_at <= x.occurred_at + mhq.conversation_gap()
     order by p.occurred_at, p.id
     limit 1;
  end if;
  return found_id;
end
$$;
