-- The calling agent's own interactions, by id or by the caller's message id (externalId): what a
-- write stored, read back for its answer, and what a retried write stored the first time (turns of a
-- batch still being stored are not stored yet: mhq.hidden_interaction_batches). Security
-- definer because specialists write interactions but may not read them (interactions_select); it
-- returns only rows the caller wrote itself (its agent id from its claims, never from an argument).
create or replace function mhq.own_interactions(p_ids uuid[], p_external_ids text[])
returns table (
  id uuid, client_id uuid, agent_id uuid, contact_id uuid, channel text, direction text, speaker text, content text,
  occurred_at timestamptz, embedded boolean, created_at timestamptz, conversation_key text, external_id text,
  conversation text, attachments jsonb
)
language sql stable security definer
set search_path = public, pg_temp
as $$
  select i.id, i.client_id, i.agent_id, i.contact_id, i.channel, i.direction, i.speaker, i.content, i.occurred_at,
         i.embedding is not null, i.created_at, i.conversation_key, i.external_id,
         coalesce(i.conversation_key, d.conversation_id::text, i.id::text), i.attachments
    from interactions i
    left join interaction_search_docs d on d.interaction_id = i.id
   where mhq.agent_id() is not null and i.agent_id = mhq.agent_id()
     and (i.id = any(p_ids) or i.external_id = any(p_external_ids))
     and (i.batch_id is null or i.batch_id <> all (mhq.hidden_interaction_batches()))
$$;

revoke all on function mhq.own_interactions(uuid[], text[]) from public;
grant execute on function mhq.own_interactions(uuid[], text[]) to mhq_app;
