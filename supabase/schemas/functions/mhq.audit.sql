-- Records an audit entry for the current caller, inside the caller's own transaction, so the entry
-- commits or rolls back together with the change it describes. The actor comes from the claims,
-- never from the arguments, so a caller cannot write entries in someone else's name; a field
-- agent's entries are always filed under its own client, whatever client the arguments name.
create or replace function mhq.audit(
  p_action text,
  p_target_type text default '',
  p_target_id text default null,
  p_details jsonb default '{}',
  p_client_id uuid default null
) returns void
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  c jsonb := mhq.claims();
begin
  insert into audit_log (actor_type, actor_id, actor_name, action, target_type, target_id, client_id, details)
  values (
    case
      when c ->> 'caller_type' = 'agent' then 'agent'
      when c ->> 'caller_type' = 'hq' and nullif(c ->> 'hq_user_id', '') is not null then 'hq_user'
      when c ->> 'caller_type' = 'hq' then 'admin_key'
      else 'system'
    end,
    coalesce(nullif(c ->> 'agent_id', ''), nullif(c ->> 'hq_user_id', ''))::uuid,
    coalesce(c ->> 'name', ''),
    p_action, coalesce(p_target_type, ''), p_target_id,
    case
      when c ->> 'caller_type' = 'agent' and c ->> 'agent_kind' = 'field' then nullif(c ->> 'client_id', '')::uuid
      else coalesce(p_client_id, nullif(c ->> 'client_id', '')::uuid)
    end,
    coalesce(p_details, '{}')
  );
end
$$;

revoke all on function mhq.audit(text, text, text, jsonb, uuid) from public;
grant execute on function mhq.audit(text, text, text, jsonb, uuid) to mhq_app;
