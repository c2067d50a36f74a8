-- Contacts and facts (seed 002, layer 1): the canonical profile of each person the agents talk to,
-- and the validated facts about them. The memory manager is the only writer: manager agents and
-- HQ admins write; HQ curators only by approving a suggestion (policy in the suggestions migration);
-- everyone else with memory access reads. Isolated agents see nothing.
--
-- Tenancy: a contact belongs to one client, or to HQ itself (client_id null: the agency's own
-- prospects). Internal agents serve HQ and every client, as the memory manager of seed 002 does;
-- field agents see and write only their own client's contacts, never HQ's.

-- ── Helpers ─────────────────────────────────────────────────────────────────────────────────────
-- Whether the caller may see rows of a contact belonging to `p_client_id` (null: HQ's own).
create function mhq.in_contact_scope(p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_hq()
      or mhq.is_internal_agent()
      or (mhq.is_field_agent() and p_client_id is not null and p_client_id = mhq.client_id())
$$;

-- A manager agent (internal or field): the memory manager role of seed 002.
create function mhq.is_memory_manager() returns boolean
language sql stable as $$ select mhq.is_agent() and coalesce(mhq.agent_role() = 'manager', false) $$;

-- Who writes canonical memory (contacts, facts) directly: manager agents and HQ admins.
create function mhq.writes_canonical_memory() returns boolean
language sql stable as $$ select mhq.is_hq_admin() or mhq.is_memory_manager() $$;

-- The caller as recorded on rows it writes (same mapping as mhq.audit), taken from the claims so a
-- caller cannot write rows in someone else's name.
create function mhq.current_actor_type() returns text
language sql stable as $$
  select case
    when mhq.caller_type() = 'agent' then 'agent'
    when mhq.caller_type() = 'hq' and mhq.hq_user_id() is not null then 'hq_user'
    when mhq.caller_type() = 'hq' then 'admin_key'
    else 'system'
  end
$$;

create function mhq.current_actor_id() returns uuid
language sql stable as $$
  select case when mhq.caller_type() = 'agent' then mhq.agent_id() else mhq.hq_user_id() end
$$;

create function mhq.current_actor_name() returns text
language sql stable as $$ select coalesce(mhq.claims() ->> 'name', '') $$;

-- ── Business relevance allow-list (seed 002: "Is this a business-relevant fact?") ───────────────
-- Fact keys a client considers relevant. Empty: no list, relevance is left to the reviewer. With a
-- list, keys outside it are never auto-approved. Edited by HQ admins (the clients update policy).
alter table clients add column fact_keys text[] not null default '{}';

-- ── contacts ────────────────────────────────────────────────────────────────────────────────────
create table contacts (
  id uuid primary key default gen_random_uuid(),
  client_id uuid references clients (id) on delete cascade,
  name text check (char_length(name) between 1 and 200),
  -- E.164 (+18635551234): the service normalises whatever was typed, so lookups match
  phone text check (phone ~ '^\+[1-9][0-9]{6,14}$'),
  email text check (char_length(email) <= 320 and email ~ '^[^@\s]+@[^@\s]+$'),
  summary text not null default '' check (char_length(summary) <= 4000),
  stage text not null default 'new'
    check (stage in ('new', 'engaged', 'qualified', 'booked', 'customer', 'lost', 'opted_out')),
  sentiment text check (sentiment in ('positive', 'neutral', 'negative')),
  opt_out boolean not null default false,
  opted_out_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- an opted-out contact keeps no personal data: only its id, client and the time it opted out
  constraint contacts_opt_out_erased check (
    not opt_out or (name is null and phone is null and email is null and summary = '' and opted_out_at is not null)
  )
);
-- serves: GET /contacts/lookup?phone= (the orchestrator's get_memory(phone)) and uniqueness per client
create unique index contacts_phone_key on contacts (client_id, phone) nulls not distinct where phone is not null;
-- serves: GET /contacts/lookup?email= (case-insensitive) and uniqueness per client
create unique index contacts_email_key on contacts (client_id, lower(email)) nulls not distinct where email is not null;
-- serves: GET /contacts (one client's contacts, most recently changed first)
create index contacts_client_idx on contacts (client_id, updated_at desc);
create trigger contacts_updated_at before update on contacts
  for each row execute function mhq.touch_updated_at();

alter table contacts enable row level security;
grant select, insert, update (name, phone, email, summary, stage, sentiment) on contacts to mhq_app;
create policy contacts_select on contacts for select to mhq_app using (mhq.in_contact_scope(client_id));
create policy contacts_insert on contacts for insert to mhq_app
  with check (mhq.writes_canonical_memory() and mhq.in_contact_scope(client_id) and not opt_out);
create policy contacts_update on contacts for update to mhq_app
  using (mhq.writes_canonical_memory() and mhq.in_contact_scope(client_id))
  with check (mhq.writes_canonical_memory() and mhq.in_contact_scope(client_id));

-- Rows that hang off a contact carry its client_id (RLS and listings read it); this copies it from
-- the contact so a caller can never file a row under another client. Security definer: it must
-- see the contact even when the caller cannot (the policies then refuse the row).
create function mhq.copy_contact_client() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  select c.client_id into new.client_id from contacts c where c.id = new.contact_id;
  return new;
end
$$;

-- ── facts ───────────────────────────────────────────────────────────────────────────────────────
-- Facts are versioned, never edited: a new value for a key is a new row, and the row it replaces
-- becomes `superseded` with a pointer to the winner, so history is never lost.
create table facts (
  id uuid primary key default gen_random_uuid(),
  contact_id uuid not null references contacts (id) on delete cascade,
  client_id uuid references clients (id) on delete cascade,
  key text not null check (char_length(key) <= 100 and key ~ '^[a-z0-9]+([._-][a-z0-9]+)*$'),
  value text not null check (char_length(value) between 1 and 2000),
  -- seed 002: nothing below 0.7 ever becomes canonical, whatever the application does
  confidence double precision not null check (confidence >= 0.7 and confidence <= 1),
  status text not null default 'active' check (status in ('active', 'superseded')),
  superseded_by uuid references facts (id) on delete set null,
  superseded_at timestamptz,
  -- the suggestion this fact came from (foreign key added with memory_suggestions)
  source_suggestion_id uuid,
  written_by_type text not null default mhq.current_actor_type()
    check (written_by_type in ('agent', 'hq_user', 'admin_key', 'system')),
  written_by_id uuid default mhq.current_actor_id(),
  written_by_name text not null default mhq.current_actor_name(),
  created_at timestamptz not null default now(),
  constraint facts_superseded_stamped check ((status = 'superseded') = (superseded_at is not null))
);
-- serves: a contact's current facts (GET /contacts/{id}, lookup) and one active value per key
create unique index facts_active_key on facts (contact_id, key) where status = 'active';
-- serves: a contact's fact history (GET /contacts/{id}/history), newest version first per key
create index facts_history_idx on facts (contact_id, key, created_at desc);
create trigger facts_client before insert on facts
  for each row execute function mhq.copy_contact_client();

alter table facts enable row level security;
-- values are immutable; the only change a caller makes is superseding a fact
grant select, insert, update (status, superseded_by, superseded_at) on facts to mhq_app;
create policy facts_select on facts for select to mhq_app using (mhq.in_contact_scope(client_id));
create policy facts_insert on facts for insert to mhq_app
  with check (
    mhq.writes_canonical_memory() and mhq.in_contact_scope(client_id) and status = 'active'
    and written_by_type = mhq.current_actor_type() and written_by_id is not distinct from mhq.current_actor_id()
  );
create policy facts_update on facts for update to mhq_app
  using (mhq.writes_canonical_memory() and mhq.in_contact_scope(client_id))
  with check (mhq.writes_canonical_memory() and mhq.in_contact_scope(client_id));

-- ── interactions → contacts ─────────────────────────────────────────────────────────────────────
-- The interactions migration leaves contact_id without a foreign key because contacts did not
-- exist yet. Erasure deletes a contact's interactions; deleting a contact row keeps the log.
alter table interactions
  add constraint interactions_contact_fk foreign key (contact_id) references contacts (id) on delete set null;
