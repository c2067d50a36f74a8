-- The rest of seed 002's required tables: playbook updates (script improvement ideas), the event
-- log (tool successes and failures) and agent notes (ephemeral, 24 h). Agents write them in their
-- own name and, for field agents, only for their own client. Isolated agents: nothing.
--
-- Reads: HQ reads all; the writing agent reads its own; managers and orchestrators (the roles that
-- route and review) read their scope's. Specialists write but do not read each other's.

-- Whether the caller may read a row an agent wrote: its author, or a manager/orchestrator in scope.
create function mhq.can_read_agent_log(p_agent_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_hq()
      or (mhq.is_agent() and p_agent_id = mhq.agent_id())
      or (mhq.agent_role() in ('manager', 'orchestrator') and mhq.in_contact_scope(p_client_id) and mhq.is_agent())
$$;

-- Whether an agent may write a row in its own name for `p_client_id`.
create function mhq.can_write_agent_log(p_agent_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_agent()
     and p_agent_id = mhq.agent_id()
     and (mhq.is_internal_agent() or (p_client_id is not null and p_client_id = mhq.client_id()))
$$;

-- ── playbook_updates (seed 002 "self-learning safe zones") ──────────────────────────────────────
-- Agents may propose better follow-up wording, objection responses, KB gap additions and routing
-- thresholds. Locked constants are never a playbook matter: the service refuses those (422).
create table playbook_updates (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references agents (id) on delete cascade,
  client_id uuid references clients (id) on delete cascade,
  area text not null check (area in ('follow-up', 'objection', 'kb-gap', 'routing', 'script', 'other')),
  title text not null check (char_length(title) between 1 and 200),
  content text not null check (char_length(content) between 1 and 8000),
  status text not null default 'proposed' check (status in ('proposed', 'accepted', 'rejected')),
  review_note text check (char_length(review_note) <= 1000),
  reviewed_by_name text,
  reviewed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint playbook_updates_decided_stamped check ((status = 'proposed') = (reviewed_at is null))
);
-- serves: GET /playbook-updates?status= (the daily review, newest first)
create index playbook_updates_status_idx on playbook_updates (status, created_at desc);
create trigger playbook_updates_updated_at before update on playbook_updates
  for each row execute function mhq.touch_updated_at();

alter table playbook_updates enable row level security;
grant select, insert, update (status, review_note, reviewed_by_name, reviewed_at) on playbook_updates to mhq_app;
create policy playbook_updates_select on playbook_updates for select to mhq_app
  using (mhq.can_read_agent_log(agent_id, client_id));
create policy playbook_updates_insert on playbook_updates for insert to mhq_app
  with check (mhq.can_write_agent_log(agent_id, client_id) and status = 'proposed');
create policy playbook_updates_update on playbook_updates for update to mhq_app
  using (mhq.hq_role() in ('admin', 'curator')) with check (mhq.hq_role() in ('admin', 'curator'));

-- ── event_log (seed 002: tool successes and failures, for the optimizer's daily review) ─────────
create table event_log (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references agents (id) on delete cascade,
  client_id uuid references clients (id) on delete cascade,
  -- an event about one contact is erased with it on opt-out
  contact_id uuid references contacts (id) on delete cascade,
  kind text not null check (kind ~ '^[a-z][a-z0-9_.-]{0,63}$'),
  outcome text not null default 'info' check (outcome in ('success', 'failure', 'info')),
  summary text not null check (char_length(summary) between 1 and 2000),
  payload jsonb not null default '{}' check (jsonb_typeof(payload) = 'object' and octet_length(payload::text) <= 20000),
  occurred_at timestamptz not null default now()
);
-- serves: GET /events (newest first) with the kind and outcome filters of the failure review
create index event_log_occurred_idx on event_log (occurred_at desc);
create index event_log_kind_idx on event_log (kind, outcome, occurred_at desc);
-- serves: opt-out erasure of a contact's events
create index event_log_contact_idx on event_log (contact_id) where contact_id is not null;

alter table event_log enable row level security;
grant select, insert on event_log to mhq_app;
create policy event_log_select on event_log for select to mhq_app
  using (mhq.can_read_agent_log(agent_id, client_id));
create policy event_log_insert on event_log for insert to mhq_app
  with check (mhq.can_write_agent_log(agent_id, client_id));

-- ── agent_notes (seed 002: ephemeral working notes, auto-deleted after 24 h) ────────────────────
-- Expired notes are invisible at once (the select policy compares with now()), whether or not the
-- cleanup (mhq.purge_expired_agent_notes, POST /api/v1/jobs/purge-notes) has deleted them yet.
create table agent_notes (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references agents (id) on delete cascade,
  client_id uuid references clients (id) on delete cascade,
  contact_id uuid references contacts (id) on delete cascade,
  content text not null check (char_length(content) between 1 and 4000),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '24 hours',
  constraint agent_notes_ttl check (expires_at <= created_at + interval '24 hours')
);
-- serves: the cleanup job (delete where expires_at <= now)
create index agent_notes_expires_idx on agent_notes (expires_at);
-- serves: GET /notes (an agent's own live notes, newest first)
create index agent_notes_agent_idx on agent_notes (agent_id, created_at desc);
-- serves: opt-out erasure of a contact's notes
create index agent_notes_contact_idx on agent_notes (contact_id) where contact_id is not null;

alter table agent_notes enable row level security;
grant select, insert on agent_notes to mhq_app;
create policy agent_notes_select on agent_notes for select to mhq_app
  using (expires_at > now() and mhq.can_read_agent_log(agent_id, client_id));
create policy agent_notes_insert on agent_notes for insert to mhq_app
  with check (mhq.can_write_agent_log(agent_id, client_id) and expires_at > now());

-- The cleanup: deletes notes past their expiry (as of `p_now`) and answers how many. Callable by
-- HQ admins and by system jobs (no claims); it runs as the owner because callers cannot delete.
create function mhq.purge_expired_agent_notes(p_now timestamptz default now()) returns integer
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  n integer;
begin
  if mhq.caller_type() is not null and not mhq.is_hq_admin() then
    raise exception 'only HQ admins and system jobs purge agent notes' using errcode = '42501';
  end if;
  delete from agent_notes where expires_at <= p_now;
  get diagnostics n = row_count;
  return n;
end
$$;
revoke all on function mhq.purge_expired_agent_notes(timestamptz) from public;
grant execute on function mhq.purge_expired_agent_notes(timestamptz) to mhq_app;
