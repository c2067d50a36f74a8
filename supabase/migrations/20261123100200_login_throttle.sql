-- Sign-in attempts counted in the database, so every app instance on it enforces one limit: per
-- account (an email) and per client address, each a fixed window. Keys are SHA-256 hashes of
-- "account:<email>" and "address:<ip>", so the table holds no email or address in clear.
--
-- System only: no grants to mhq_app, RLS on without policies. The sign-in path writes it as the
-- owning role; no API caller can read or reset anyone's count.
create table login_throttle (
  key text primary key check (key ~ '^[0-9a-f]{64}$'),
  attempts integer not null check (attempts >= 0),
  window_ends timestamptz not null
);
-- serves: the bounded sweep of windows that ended long ago (a few rows per sign-in, never a reset)
create index login_throttle_window_idx on login_throttle (window_ends);
alter table login_throttle enable row level security;
revoke all on login_throttle from mhq_app;
