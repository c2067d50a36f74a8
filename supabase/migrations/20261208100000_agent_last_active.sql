-- An agent's last activity, for the agents list: its newest write in the audit log is found by this
-- index instead of a scan of the whole log (its key use and its retrievals have their own indexes).
create index audit_log_agent_actor_idx on audit_log (actor_id, occurred_at desc) where actor_type = 'agent';
