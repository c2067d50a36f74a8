-- The advisory-lock key of a turn's conversation: the caller's thread when it named one, else the
-- inferred conversation's agent, channel, contact and client. Writes to one conversation take turns
-- on it (pg_advisory_xact_lock(hashtext('mhq.conversation'), key)), so two turns written at once see
-- each other; other conversations are never held up.
create or replace function mhq.conversation_lock_key(
  p_agent_id uuid, p_channel text, p_contact_id uuid, p_client_id uuid, p_conversation_key text
) returns integer
language sql immutable
as $$
  select case
    when p_conversation_key is not null then hashtext(p_agent_id::text || ':thread:' || p_conversation_key)
    else hashtext(p_agent_id::text || ':' || p_channel || ':' || coalesce(p_contact_id::text, '') || ':' || coalesce(p_client_id::text, ''))
  end
$$;
