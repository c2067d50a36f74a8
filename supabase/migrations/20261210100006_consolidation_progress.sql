-- What a consolidation run has changed so far, a row per step, written in the same transaction as
-- the step's changes. Each step appends only what it changed itself, so a step's write stays as small
-- as the step however large the run grows (the run's whole record rewritten at every step, as the
-- lease's last_report held it, grew with each step). The run reads its rows back for its audit entry
-- and deletes them with its last step; a run that stopped midway leaves them, and the next run to
-- take the lease audits them as interrupted and deletes them. The run lease (job_leases) keeps
-- last_report for the progress an earlier release's run left in it.
-- Only HQ admins (the scheduler acts as one) read or write them.
create table consolidation_progress (
  -- the run that wrote it: the holder of the run lease
  holder text not null check (char_length(holder) between 1 and 100),
  step integer not null check (step >= 0),
  changes jsonb not null,
  created_at timestamptz not null default now(),
  primary key (holder, step)
);
alter table consolidation_progress enable row level security;
grant select, insert (holder, step, changes), delete on consolidation_progress to mhq_app;
create policy consolidation_progress_select on consolidation_progress for select to mhq_app using ((select mhq.is_hq_admin()));
create policy consolidation_progress_insert on consolidation_progress for insert to mhq_app with check ((select mhq.is_hq_admin()));
create policy consolidation_progress_delete on consolidation_progress for delete to mhq_app using ((select mhq.is_hq_admin()));
