-- Memory lifecycle: the nightly consolidation (archive, prune, promote, verify, outcome check), the
-- per-agent nightly reports it writes, escalations that feed the knowledge base, and the lease that
-- makes a scheduled job run once across every app instance.

-- ── daily notes: archived after 7 days (still readable, no longer part of the boot context) ──────
alter table agent_documents add column archived_at timestamptz;
grant update (archived_at) on agent_documents to mhq_app;
-- serves: the consolidation finding daily notes to archive (oldest dates first)
create index agent_documents_daily_unarchived_idx on agent_documents (doc_date, id)
  where type = 'daily' and archived_at is null;

-- ── memories: promotion and verification bookkeeping ────────────────────────────────────────────
-- promoted_from: the learning memories a core memory was promoted from (the consolidation's rule).
-- verification_flagged_at: when the consolidation flagged a core memory as unconfirmed for too long;
-- the flag stands while it is later than updated_at (any edit or confirmation clears it).
alter table memories add column promoted_from uuid[] not null default '{}';
alter table memories add column verification_flagged_at timestamptz;
grant update (verification_flagged_at) on memories to mhq_app;
-- serves: the consolidation's promotion candidates (recurring, well-used learning memories)
create index memories_promotion_idx on memories (agent_id, accessed_count desc)
  where tier = 'learning' and status = 'active' and scope = 'agent';
-- serves: the consolidation's resolved working items to prune
create index memories_resolved_working_idx on memories (resolved_at)
  where tier = 'working' and status = 'resolved';
-- serves: decisions awaiting outcomes (consolidation, reports, the Outcomes page)
create index memories_open_decisions_idx on memories (created_at)
  where category = 'decision' and outcome is null and status <> 'archived';

-- ── job leases: one run of a scheduled job across all instances ─────────────────────────────────
create table job_leases (
  name text primary key check (char_length(name) between 1 and 100),
  -- the instance holding the lease and until when (a crashed holder's lease simply runs out)
  holder text,
  lease_until timestamptz,
  -- the local calendar day the job last ran for: a day is claimed once
  last_run_for date,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_report jsonb
);
insert into job_leases (name) values ('consolidate');

alter table job_leases enable row level security;
grant select, update (holder, lease_until, last_run_for, last_started_at, last_finished_at, last_report) on job_leases to mhq_app;
-- HQ reads when jobs ran; only HQ admins (the scheduler acts as one) claim and release a lease.
create policy job_leases_select on job_leases for select to mhq_app using ((select mhq.is_hq()));
create policy job_leases_update on job_leases for update to mhq_app
  using ((select mhq.is_hq_admin())) with check ((select mhq.is_hq_admin()));

-- ── nightly reports ─────────────────────────────────────────────────────────────────────────────
create table agent_reports (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references agents (id) on delete cascade,
  client_id uuid references clients (id) on delete cascade,
  -- the local calendar day the report covers
  report_date date not null,
  data jsonb not null check (jsonb_typeof(data) = 'object'),
  markdown text not null,
  generated_at timestamptz not null default now(),
  -- serves: GET …/reports/{date}; a day's report is written once
  constraint agent_reports_day_key unique (agent_id, report_date)
);
-- serves: GET …/reports (newest first)
create index agent_reports_agent_idx on agent_reports (agent_id, report_date desc);

alter table agent_reports enable row level security;
grant select, insert on agent_reports to mhq_app;
-- HQ reads every report; an agent reads its own. Only HQ admins (the consolidation) write them.
create policy agent_reports_select on agent_reports for select to mhq_app
  using ((select mhq.is_hq()) or ((select mhq.is_agent()) and agent_id = (select mhq.agent_id())));
create policy agent_reports_insert on agent_reports for insert to mhq_app with check ((select mhq.is_hq_admin()));

-- ── escalations → knowledge base ────────────────────────────────────────────────────────────────
create table escalations (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references agents (id) on delete cascade,
  -- the field agent's client; null for internal agents
  client_id uuid references clients (id) on delete cascade,
  question text not null check (char_length(question) between 1 and 4000),
  severity text not null check (severity in ('low', 'medium', 'high', 'critical')),
  context text not null default '' check (char_length(context) <= 20000),
  status text not null default 'open' check (status in ('open', 'resolved')),
  -- the captured fix offered when it was raised (an earlier resolved escalation's knowledge entry)
  known_fix_id uuid references knowledge_entries (id) on delete set null,
  resolution text check (char_length(resolution) <= 20000),
  -- the knowledge entry written from this escalation's resolution
  knowledge_entry_id uuid references knowledge_entries (id) on delete set null,
  raised_by_name text not null default mhq.current_actor_name(),
  resolved_by_name text,
  resolved_at timestamptz,
  created_at timestamptz not null default now(),
  constraint escalations_resolved_stamped check ((status = 'resolved') = (resolved_at is not null and resolution is not null))
);
-- serves: GET /escalations?status= (newest first) and the Dashboard's count
create index escalations_status_idx on escalations (status, created_at desc);
-- serves: nightly reports (an agent's escalations of a day)
create index escalations_agent_idx on escalations (agent_id, created_at desc);
-- serves: is a knowledge entry a captured fix (mhq.captured_fix_ids)
create index escalations_knowledge_idx on escalations (knowledge_entry_id) where knowledge_entry_id is not null;

alter table escalations enable row level security;
grant select, insert on escalations to mhq_app;
grant update (status, resolution, knowledge_entry_id, resolved_by_name, resolved_at) on escalations to mhq_app;
-- HQ and internal agents see every escalation; a field agent only its own client's.
create policy escalations_select on escalations for select to mhq_app
  using (mhq.in_contact_scope(client_id));
-- An agent raises escalations in its own name and under its own client, open.
create policy escalations_insert on escalations for insert to mhq_app
  with check (
    (select mhq.is_agent()) and agent_id = (select mhq.agent_id())
    and client_id is not distinct from (select mhq.client_id())
    and status = 'open' and resolved_at is null and knowledge_entry_id is null
  );
-- Resolving: HQ admins and curators, internal agents with kb_access 'write' (who write the fix).
create policy escalations_update on escalations for update to mhq_app
  using ((select mhq.is_kb_writer())) with check ((select mhq.is_kb_writer()));

-- Which of the given knowledge entries were captured from a resolved escalation. Security definer so a
-- field agent learns that an entry is a proven fix without seeing the (other client's) escalation.
create function mhq.captured_fix_ids(p_ids uuid[]) returns uuid[]
language sql stable security definer set search_path = public, pg_temp as $$
  select coalesce(array_agg(distinct knowledge_entry_id), '{}')
    from escalations
   where status = 'resolved' and knowledge_entry_id = any(p_ids)
$$;
revoke all on function mhq.captured_fix_ids(uuid[]) from public;
grant execute on function mhq.captured_fix_ids(uuid[]) to mhq_app;
