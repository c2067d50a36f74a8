-- The caller as recorded on rows it writes (same mapping as mhq.audit), taken from the claims so a
-- caller cannot write rows in someone else's name.
create or replace function mhq.current_actor_type() returns text
language sql stable as $$
  select case
    when mhq.caller_type() = 'agent' then 'agent'
    when mhq.caller_type() = 'hq' and mhq.hq_user_id() is not null then 'hq_user'
    when mhq.caller_type() = 'hq' then 'admin_key'
    else 'system'
  end
$$;
