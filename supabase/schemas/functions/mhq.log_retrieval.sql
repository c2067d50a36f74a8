-- The same insert as before, kept planned between calls. Security invoker: retrieval_log_insert
-- decides who may log what, exactly as for a plain insert. p_fallback: 'shared' when a local
-- retrieval found nothing in the agent's own scopes and searched the team's shared memory instead.
create or replace function mhq.log_retrieval(
  p_agent_id uuid, p_client_id uuid, p_endpoint text, p_caller_type text, p_level text, p_explicit_scopes boolean,
  p_scopes text[], p_trigger_kinds text[], p_items jsonb, p_took_ms float8, p_message_chars int, p_fallback text
)
returns void
language plpgsql volatile security invoker
set search_path = public, pg_temp
as $$
begin
  insert into retrieval_log (agent_id, client_id, endpoint, caller_type, level, explicit_scopes, scopes, trigger_kinds,
                             items, item_count, took_ms, message_chars, fallback)
  values (p_agent_id, p_client_id, p_endpoint, p_caller_type, p_level, p_explicit_scopes, p_scopes, p_trigger_kinds,
          p_items, jsonb_array_length(p_items), p_took_ms, p_message_chars, p_fallback);
end
$$;

revoke all on function mhq.log_retrieval(uuid, uuid, text, text, text, boolean, text[], text[], jsonb, double precision, integer, text) from public;
grant execute on function mhq.log_retrieval(uuid, uuid, text, text, text, boolean, text[], text[], jsonb, double precision, integer, text) to mhq_app;
