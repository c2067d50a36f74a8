-- The smart trigger's vocabulary (names of agents, clients and their trigger terms, missions in
-- flight, contacts) is compiled once per agent and kept by each app instance. Every change to those
-- names advances this sequence; an instance compares the value it compiled under with the current
-- one before using its copy, so a name added through one instance reaches the trigger on every
-- instance at the next call (the one-minute lifetime of a copy stays as a backstop). A sequence,
-- not a row: advancing it takes no lock, so writers never wait on each other for it.
create sequence mhq.vocabulary_generation;
grant usage on schema mhq to mhq_app;
grant select on sequence mhq.vocabulary_generation to mhq_app;

create or replace function mhq.advance_vocabulary_generation() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  perform nextval('mhq.vocabulary_generation');
  return null;
end
$$;
revoke all on function mhq.advance_vocabulary_generation() from public;

create trigger agents_vocabulary after insert or delete or update of name, disabled_at on agents
  for each statement execute function mhq.advance_vocabulary_generation();
create trigger clients_vocabulary after insert or delete or update of name, trigger_terms on clients
  for each statement execute function mhq.advance_vocabulary_generation();
create trigger missions_vocabulary after insert or delete or update of title, status on missions
  for each statement execute function mhq.advance_vocabulary_generation();
create trigger contacts_vocabulary after insert or delete or update of name, opt_out, client_id on contacts
  for each statement execute function mhq.advance_vocabulary_generation();
