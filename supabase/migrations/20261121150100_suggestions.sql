-- Memory suggestions (seed 002, layers 2 and 3): facts that orchestrators and specialists propose
-- and the memory manager validates. A suggestion never becomes a fact by itself: a manager agent,
-- the manager pass or an HQ reviewer approves it, and the rules (confidence ≥ 0.7, no PII, higher
-- confidence wins a conflict, locked constants refused) run again at that moment.
--
-- Suggestions carrying PII are refused before they reach this table (422 pii_refused), so no row
-- here ever holds an SSN, a card number or a sensitive topic.

create table memory_suggestions (
  id uuid primary key default gen_random_uuid(),
  contact_id uuid not null references contacts (id) on delete cascade,
  client_id uuid references clients (id) on delete cascade,
  key text not null check (char_length(key) <= 100 and key ~ '^[a-z0-9]+([._-][a-z0-9]+)*$'),
  value text not null check (char_length(value) between 1 and 2000),
  confidence double precision not null check (confidence >= 0 and confidence <= 1),
  -- the transcript the fact was extracted from (seed 002's memory extractor)
  interaction_id uuid references interactions (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'superseded')),
  reason text check (char_length(reason) <= 1000),
  -- the validator's findings at the last look: [{code, message}]
  flags jsonb not null default '[]' check (jsonb_typeof(flags) = 'array'),
  -- approved: the fact it became; superseded: the fact that kept its place (higher confidence)
  fact_id uuid references facts (id) on delete set null,
  proposed_by_type text not null default mhq.current_actor_type()
    check (proposed_by_type in ('agent', 'hq_user', 'admin_key', 'system')),
  proposed_by_id uuid default mhq.current_actor_id(),
  proposed_by_name text not null default mhq.current_actor_name(),
  reviewed_by_type text check (reviewed_by_type in ('agent', 'hq_user', 'admin_key', 'system')),
  reviewed_by_id uuid,
  reviewed_by_name text,
  reviewed_at timestamptz,
  -- when the manager pass last looked at it and left it for a person
  checked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint memory_suggestions_decided_stamped check ((status = 'pending') = (reviewed_at is null))
);
-- serves: the Review queue (pending, oldest first) and GET /suggestions?status=
create index memory_suggestions_status_idx on memory_suggestions (status, created_at);
-- serves: the manager pass (pending, never or longest unchecked first)
create index memory_suggestions_pass_idx on memory_suggestions (checked_at nulls first, created_at) where status = 'pending';
-- serves: a contact's suggestions (contact page history, opt-out erasure)
create index memory_suggestions_contact_idx on memory_suggestions (contact_id, created_at desc);
-- serves: finding the suggestions extracted from one interaction (Review queue excerpt join)
create index memory_suggestions_interaction_idx on memory_suggestions (interaction_id) where interaction_id is not null;
create trigger memory_suggestions_updated_at before update on memory_suggestions
  for each row execute function mhq.touch_updated_at();
create trigger memory_suggestions_client before insert on memory_suggestions
  for each row execute function mhq.copy_contact_client();

alter table memory_suggestions enable row level security;
grant select, insert,
  update (status, reason, flags, fact_id, reviewed_by_type, reviewed_by_id, reviewed_by_name, reviewed_at, checked_at)
  on memory_suggestions to mhq_app;
-- Everyone with memory access reads the suggestions of the contacts they may see.
create policy memory_suggestions_select on memory_suggestions for select to mhq_app
  using (mhq.in_contact_scope(client_id));
-- Agents propose in their own name (isolated agents are not agents here); HQ admins and curators
-- may propose from the console. A proposal starts pending, or rejected by the validator at once.
create policy memory_suggestions_insert on memory_suggestions for insert to mhq_app
  with check (
    mhq.in_contact_scope(client_id)
    and (mhq.is_agent() or mhq.hq_role() in ('admin', 'curator'))
    and proposed_by_type = mhq.current_actor_type()
    and proposed_by_id is not distinct from mhq.current_actor_id()
    and status in ('pending', 'rejected')
    and fact_id is null
  );
-- Reviewing: manager agents, HQ admins and curators.
create policy memory_suggestions_update on memory_suggestions for update to mhq_app
  using (mhq.in_contact_scope(client_id) and (mhq.is_memory_manager() or mhq.hq_role() in ('admin', 'curator')))
  with check (mhq.in_contact_scope(client_id) and (mhq.is_memory_manager() or mhq.hq_role() in ('admin', 'curator')));

-- Whether an interaction may be cited as a suggestion's source: same client as the contact, and not
-- logged against another contact. Security definer because specialists write interactions but may
-- not read them back (interactions_select); it reveals only this yes/no, for contacts in scope.
create function mhq.interaction_fits_contact(p_interaction_id uuid, p_contact_id uuid) returns boolean
language sql stable security definer set search_path = public, pg_temp as $$
  select exists (
    select 1
      from interactions i
      join contacts c on c.id = p_contact_id
     where i.id = p_interaction_id
       and mhq.in_contact_scope(c.client_id)
       and (i.contact_id = c.id or (i.contact_id is null and i.client_id is not distinct from c.client_id))
  )
$$;
revoke all on function mhq.interaction_fits_contact(uuid, uuid) from public;
grant execute on function mhq.interaction_fits_contact(uuid, uuid) to mhq_app;

-- ── facts ← suggestions ─────────────────────────────────────────────────────────────────────────
alter table facts
  add constraint facts_source_suggestion_fk foreign key (source_suggestion_id)
  references memory_suggestions (id) on delete set null;
-- serves: the foreign key above when a suggestion is deleted (opt-out erasure)
create index facts_source_suggestion_idx on facts (source_suggestion_id) where source_suggestion_id is not null;

-- HQ curators approve suggestions (ARCHITECTURE.md) but do not write facts directly: a curator's
-- fact must come from a suggestion about the same contact and key.
create policy facts_insert_by_approval on facts for insert to mhq_app
  with check (
    mhq.hq_role() = 'curator'
    and status = 'active'
    and written_by_type = mhq.current_actor_type()
    and written_by_id is not distinct from mhq.current_actor_id()
    and exists (
      select 1 from memory_suggestions s
       where s.id = facts.source_suggestion_id and s.contact_id = facts.contact_id and s.key = facts.key
    )
  );
-- …and may only retire the fact such an approval replaces.
create policy facts_update_by_approval on facts for update to mhq_app
  using (mhq.hq_role() = 'curator')
  with check (mhq.hq_role() = 'curator' and status = 'superseded');
