-- Isolated agents (code, deploy, migrations) have no memory at all: no memory and no document is
-- ever filed under one, whoever writes it — an HQ admin included (the policies let admins write
-- under any agent). Security definer: the writer may not be able to read the agent's row.
create or replace function mhq.refuse_isolated_agent_memory() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if exists (select 1 from agents a where a.id = new.agent_id and a.role = 'isolated') then
    raise exception 'isolated agents have no memory' using errcode = '42501';
  end if;
  return new;
end
$$;

revoke all on function mhq.refuse_isolated_agent_memory() from public;
