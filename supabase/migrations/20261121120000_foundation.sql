-- Foundation: the caller role, claim helpers, and the first tables (clients, agents, keys, HQ users,
-- sessions, missions, locked constants, audit log), each with RLS in this same file.
--
-- Every API request runs in a transaction that does `set local role mhq_app` and sets
-- `request.jwt.claims` (Supabase's convention), so these policies are the last line of defence even
-- when application code has a bug. System work (migrations, sign-in lookups, seeding, jobs) runs as
-- the owning role, which bypasses RLS.

create extension if not exists vector;
create schema if not exists mhq;

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'mhq_app') then
    create role mhq_app nologin noinherit;
  end if;
end
$$;

-- The connecting role must be a member of mhq_app to `set role` into it. On Supabase the
-- migration role may lack the right to grant; then an operator grants it once (see README).
do $$
begin
  execute format('grant mhq_app to %I', current_user);
exception when others then
  raise notice 'could not grant mhq_app to %: %', current_user, sqlerrm;
end
$$;

grant usage on schema public to mhq_app;
grant usage on schema mhq to mhq_app;

-- ── Claim helpers ───────────────────────────────────────────────────────────────────────────────
create or replace function mhq.claims() returns jsonb
language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
$$;

create or replace function mhq.caller_type() returns text
language sql stable as $$ select mhq.claims() ->> 'caller_type' $$;

create or replace function mhq.agent_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'agent_id', '')::uuid $$;

create or replace function mhq.agent_kind() returns text
language sql stable as $$ select mhq.claims() ->> 'agent_kind' $$;

create or replace function mhq.agent_role() returns text
language sql stable as $$ select mhq.claims() ->> 'agent_role' $$;

create or replace function mhq.client_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'client_id', '')::uuid $$;

create or replace function mhq.kb_access() returns text
language sql stable as $$ select mhq.claims() ->> 'kb_access' $$;

create or replace function mhq.hq_role() returns text
language sql stable as $$ select case when mhq.caller_type() = 'hq' then mhq.claims() ->> 'hq_role' end $$;

create or replace function mhq.hq_user_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'hq_user_id', '')::uuid $$;

create or replace function mhq.is_hq() returns boolean
language sql stable as $$ select coalesce(mhq.hq_role() in ('admin', 'curator', 'viewer'), false) $$;

create or replace function mhq.is_hq_admin() returns boolean
language sql stable as $$ select coalesce(mhq.hq_role() = 'admin', false) $$;

-- An agent with any memory access at all: isolated agents (code, deploy, migrations) have none.
create or replace function mhq.is_agent() returns boolean
language sql stable as $$
  select coalesce(mhq.caller_type() = 'agent' and mhq.agent_role() <> 'isolated', false)
$$;

create or replace function mhq.is_internal_agent() returns boolean
language sql stable as $$ select mhq.is_agent() and coalesce(mhq.agent_kind() = 'internal', false) $$;

create or replace function mhq.is_field_agent() returns boolean
language sql stable as $$ select mhq.is_agent() and coalesce(mhq.agent_kind() = 'field', false) $$;

create or replace function mhq.touch_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at = now();
  return new;
end
$$;

-- ── Bookkeeping (system only) ───────────────────────────────────────────────────────────────────
create table if not exists mhq.settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now()
);

-- ── clients ─────────────────────────────────────────────────────────────────────────────────────
create table clients (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  trigger_terms text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger clients_updated_at before update on clients
  for each row execute function mhq.touch_updated_at();

alter table clients enable row level security;
grant select, insert, update on clients to mhq_app;
create policy clients_select on clients for select to mhq_app
  using (mhq.is_hq() or mhq.is_internal_agent() or (mhq.is_field_agent() and id = mhq.client_id()));
create policy clients_insert on clients for insert to mhq_app with check (mhq.is_hq_admin());
create policy clients_update on clients for update to mhq_app
  using (mhq.is_hq_admin()) with check (mhq.is_hq_admin());

-- ── agents ──────────────────────────────────────────────────────────────────────────────────────
create table agents (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 100),
  kind text not null check (kind in ('internal', 'field')),
  role text not null check (role in ('manager', 'orchestrator', 'specialist', 'isolated')),
  kb_access text not null default 'read' check (kb_access in ('read', 'write')),
  client_id uuid references clients (id),
  description text not null default '',
  disabled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- field agents belong to exactly one client and never write the HQ knowledge base
  constraint agents_field_has_client check ((kind = 'field') = (client_id is not null)),
  constraint agents_field_reads_kb check (kind = 'internal' or kb_access = 'read')
);
-- serves: name lookups (trigger vocabulary, uniqueness for humans reading logs)
create unique index agents_name_key on agents (lower(name));
-- serves: field agents listing their own client's agents
create index agents_client_idx on agents (client_id);
create trigger agents_updated_at before update on agents
  for each row execute function mhq.touch_updated_at();

alter table agents enable row level security;
grant select, insert, update on agents to mhq_app;
create policy agents_select on agents for select to mhq_app
  using (
    mhq.is_hq()
    or id = mhq.agent_id()
    or mhq.is_internal_agent()
    or (mhq.is_field_agent() and client_id = mhq.client_id())
  );
create policy agents_insert on agents for insert to mhq_app with check (mhq.is_hq_admin());
create policy agents_update on agents for update to mhq_app
  using (mhq.is_hq_admin()) with check (mhq.is_hq_admin());

-- ── agent_keys ──────────────────────────────────────────────────────────────────────────────────
create table agent_keys (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references agents (id) on delete cascade,
  label text not null default '',
  prefix text not null,
  key_hash text not null unique,
  created_by_name text not null default '',
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
-- serves: bearer authentication (look up candidates by prefix, compare hashes in constant time)
create index agent_keys_prefix_idx on agent_keys (prefix);
-- serves: listing an agent's keys in the console
create index agent_keys_agent_idx on agent_keys (agent_id);

alter table agent_keys enable row level security;
grant select (id, agent_id, label, prefix, created_by_name, created_at, last_used_at, revoked_at),
  insert, update (revoked_at) on agent_keys to mhq_app;
create policy agent_keys_select on agent_keys for select to mhq_app using (mhq.is_hq());
create policy agent_keys_insert on agent_keys for insert to mhq_app with check (mhq.is_hq_admin());
create policy agent_keys_update on agent_keys for update to mhq_app
  using (mhq.is_hq_admin()) with check (mhq.is_hq_admin());

-- ── hq_users ────────────────────────────────────────────────────────────────────────────────────
create table hq_users (
  id uuid primary key default gen_random_uuid(),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$'),
  name text not null default '',
  role text not null check (role in ('admin', 'curator', 'viewer')),
  password_hash text,
  invite_token_hash text unique,
  invite_expires_at timestamptz,
  disabled_at timestamptz,
  last_login_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- serves: sign-in by email (case-insensitive) and uniqueness
create unique index hq_users_email_key on hq_users (lower(email));
create trigger hq_users_updated_at before update on hq_users
  for each row execute function mhq.touch_updated_at();

alter table hq_users enable row level security;
-- secrets (password and invite hashes) are never readable by callers, only by system code
grant select (id, email, name, role, invite_expires_at, disabled_at, last_login_at, created_at, updated_at),
  insert, update (name, role, disabled_at, invite_token_hash, invite_expires_at) on hq_users to mhq_app;
create policy hq_users_select on hq_users for select to mhq_app using (mhq.is_hq());
create policy hq_users_insert on hq_users for insert to mhq_app with check (mhq.is_hq_admin());
create policy hq_users_update on hq_users for update to mhq_app
  using (mhq.is_hq_admin()) with check (mhq.is_hq_admin());

-- ── hq_sessions (system only: no grants to mhq_app) ─────────────────────────────────────────────
create table hq_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references hq_users (id) on delete cascade,
  token_hash text not null unique,
  user_agent text not null default '',
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null
);
-- serves: signing out every session of a disabled user
create index hq_sessions_user_idx on hq_sessions (user_id);
alter table hq_sessions enable row level security;

-- ── missions ────────────────────────────────────────────────────────────────────────────────────
create table missions (
  id uuid primary key default gen_random_uuid(),
  title text not null check (length(title) between 1 and 200),
  status text not null default 'active' check (status in ('planned', 'active', 'blocked', 'done', 'cancelled')),
  summary text not null default '',
  client_id uuid references clients (id),
  created_by_name text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- serves: the briefing's "active missions" list
create index missions_status_idx on missions (status, updated_at desc);
create trigger missions_updated_at before update on missions
  for each row execute function mhq.touch_updated_at();

alter table missions enable row level security;
grant select, insert, update on missions to mhq_app;
create policy missions_select on missions for select to mhq_app
  using (mhq.is_hq() or mhq.is_internal_agent() or (mhq.is_field_agent() and client_id = mhq.client_id()));
create policy missions_insert on missions for insert to mhq_app
  with check (mhq.hq_role() in ('admin', 'curator'));
create policy missions_update on missions for update to mhq_app
  using (mhq.hq_role() in ('admin', 'curator')) with check (mhq.hq_role() in ('admin', 'curator'));

-- ── locked_constants (seed 002: prices, guarantees, compliance, escalation numbers, booking link) ─
create table locked_constants (
  id uuid primary key default gen_random_uuid(),
  key text not null unique check (key ~ '^[a-z0-9]+([._-][a-z0-9]+)*$'),
  label text not null check (length(label) between 1 and 200),
  value text not null check (length(value) between 1 and 2000),
  category text not null check (category in ('pricing', 'guarantee', 'compliance', 'escalation', 'booking', 'other')),
  description text not null default '',
  updated_by_name text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger locked_constants_updated_at before update on locked_constants
  for each row execute function mhq.touch_updated_at();

alter table locked_constants enable row level security;
grant select, insert, update, delete on locked_constants to mhq_app;
create policy locked_constants_select on locked_constants for select to mhq_app
  using (mhq.is_hq() or mhq.is_agent());
create policy locked_constants_insert on locked_constants for insert to mhq_app with check (mhq.is_hq_admin());
create policy locked_constants_update on locked_constants for update to mhq_app
  using (mhq.is_hq_admin()) with check (mhq.is_hq_admin());
create policy locked_constants_delete on locked_constants for delete to mhq_app using (mhq.is_hq_admin());

-- ── audit_log (append-only: written only through mhq.audit, never updated or deleted) ───────────
create table audit_log (
  id uuid primary key default gen_random_uuid(),
  occurred_at timestamptz not null default now(),
  actor_type text not null check (actor_type in ('agent', 'hq_user', 'admin_key', 'system')),
  actor_id uuid,
  actor_name text not null default '',
  action text not null,
  target_type text not null default '',
  target_id text,
  client_id uuid,
  details jsonb not null default '{}'
);
-- serves: the Audit page (newest first) and its action filter
create index audit_log_occurred_idx on audit_log (occurred_at desc);
create index audit_log_action_idx on audit_log (action, occurred_at desc);

alter table audit_log enable row level security;
grant select on audit_log to mhq_app;
create policy audit_log_select on audit_log for select to mhq_app using (mhq.is_hq());

-- Records an audit entry for the current caller, inside the caller's own transaction, so the entry
-- commits or rolls back together with the change it describes. The actor comes from the claims,
-- never from the arguments, so a caller cannot write entries in someone else's name.
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
    coalesce(p_client_id, nullif(c ->> 'client_id', '')::uuid),
    coalesce(p_details, '{}')
  );
end
$$;
revoke all on function mhq.audit(text, text, text, jsonb, uuid) from public;
grant execute on function mhq.audit(text, text, text, jsonb, uuid) to mhq_app;
