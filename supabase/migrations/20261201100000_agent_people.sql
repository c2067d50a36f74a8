-- The people in an agent's own memory, for the smart trigger: the speakers of its recorded
-- conversations and the names its own memories mention. A question about someone the agent has
-- talked with ("When is Dana moving?") needs its memory although no contact of that name exists.
-- Rows are written by triggers on interactions and memories (so every way of recording keeps them
-- current), never by callers. The trigger vocabulary's cache compares the newest id of an agent's
-- rows with the one it compiled under, so a new name reaches the trigger on every instance at the
-- next call; removing names advances mhq.vocabulary_generation.
create table agent_people (
  id bigint generated always as identity primary key,
  agent_id uuid not null references agents (id) on delete cascade,
  name text not null check (char_length(name) between 2 and 100),
  -- where the name was first seen: 'speaker' (an interaction's speaker), 'memory' (a memory's text)
  source text not null check (source in ('speaker', 'memory')),
  created_at timestamptz not null default now()
);
-- one row per name and agent, whatever its case
create unique index agent_people_name_idx on agent_people (agent_id, lower(name));
-- serves: the vocabulary's generation (an agent's newest id) and its load (newest first)
create index agent_people_agent_idx on agent_people (agent_id, id desc);

alter table agent_people enable row level security;
-- read only: an agent its own people, HQ everyone's; no caller role writes them
grant select on agent_people to mhq_app;
create policy agent_people_select on agent_people for select to mhq_app
  using ((select mhq.is_hq()) or ((select mhq.is_agent()) and agent_id = (select mhq.agent_id())));

-- First forms only, so the triggers can be created before the schema files are applied; the
-- functions are defined in supabase/schema/functions/.
create or replace function mhq.record_interaction_people() returns trigger
language plpgsql as $$ begin return null; end $$;
create or replace function mhq.forget_interaction_people() returns trigger
language plpgsql as $$ begin return null; end $$;
create or replace function mhq.record_memory_people() returns trigger
language plpgsql as $$ begin return null; end $$;
create or replace function mhq.person_name(text) returns text
language sql immutable as $$ select null::text $$;
create or replace function mhq.names_in_text(text) returns setof text
language sql immutable as $$ select null::text where false $$;

create trigger interactions_people after insert on interactions
  referencing new table as added for each statement execute function mhq.record_interaction_people();
create trigger interactions_people_gone after delete on interactions
  referencing old table as gone for each statement execute function mhq.forget_interaction_people();
create trigger memories_people_insert after insert on memories
  referencing new table as fresh for each statement execute function mhq.record_memory_people();
-- (a trigger with transition tables takes no column list: the function looks at rows whose title or
-- content changed, so the counters a retrieval updates cost one empty join)
create trigger memories_people_update after update on memories
  referencing new table as fresh old table as gone for each statement execute function mhq.record_memory_people();
create trigger agent_people_vocabulary after delete on agent_people
  for each statement execute function mhq.advance_vocabulary_generation();

-- A retrieval whose own scopes found nothing and that looked in the team's shared memory instead.
alter table retrieval_log add column fallback text check (fallback in ('shared'));
drop function mhq.log_retrieval(uuid, uuid, text, text, text, boolean, text[], text[], jsonb, double precision, integer);
