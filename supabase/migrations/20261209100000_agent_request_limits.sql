-- Per-agent request limits. Every caller gets the instance's defaults (ADMISSION_CALLER_RATE,
-- ADMISSION_CALLER_BURST, ADMISSION_CALLER_QUEUE); an HQ admin may give one agent its own — more for
-- an importer, less for one that misbehaves. Null: the default. Admission reads them with the agent's
-- key on each request, so a change holds on every instance from the agent's next request.
-- Who may change them is agents_update's rule: HQ admins only, so no agent can raise its own.
alter table agents
  add column rate_limit_per_second integer check (rate_limit_per_second between 1 and 100000),
  add column rate_limit_burst integer check (rate_limit_burst between 1 and 1000000),
  add column max_waiting_requests integer check (max_waiting_requests between 1 and 100000);
