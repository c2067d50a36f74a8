-- One consolidation runs at a time in the whole deployment, in short steps: the run holds this lease
-- across its steps, renewing it at each (a run whose process stopped lets the next one go once the
-- lease has run out). While a run holds it, last_report keeps what the run changed so far, written
-- in the same transaction as each step's changes: a run that stopped midway is audited from it by
-- the next run. The table's policies apply as to every lease (HQ reads, HQ admins claim).
insert into job_leases (name) values ('consolidation-run') on conflict (name) do nothing;
