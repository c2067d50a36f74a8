-- Knowledge imports written in steps. POST /knowledge/import writes its entries a few per step, each
-- step its own transaction, so that requests are served between them; the entries stay invisible
-- to every reader until one short statement publishes the whole import (mhq.publish_knowledge_import,
-- which deletes its row). An import's row:
--   'staging'   its entries are being written; the process writing it renews its lease;
--   'abandoned' given up (a failed step, or a lease that ran out: the process stopped); its entries
--               are deleted in steps, then the row.
-- A title an import writes counts as taken while it is being written (the unique index on published
-- titles holds its entries too).
create table knowledge_imports (
  id uuid primary key default gen_random_uuid(),
  state text not null default 'staging' check (state in ('staging', 'abandoned')),
  -- who is writing it (an HQ user, an agent, or the admin key: actor_id null)
  actor_type text not null default mhq.current_actor_type() check (actor_type in ('agent', 'hq_user', 'admin_key')),
  actor_id uuid default mhq.current_actor_id(),
  entries integer not null check (entries between 1 and 500),
  created_at timestamptz not null default now(),
  lease_until timestamptz not null
);

alter table knowledge_imports enable row level security;
-- a knowledge-base writer's own imports: it starts them, renews their lease and gives them up;
-- publishing goes through mhq.publish_knowledge_import. Nobody else sees them.
grant select, insert (entries, lease_until) on knowledge_imports to mhq_app;
grant update (state, lease_until) on knowledge_imports to mhq_app;
create policy knowledge_imports_select on knowledge_imports for select to mhq_app
  using (
    (select mhq.is_kb_writer())
    and actor_type = (select mhq.current_actor_type()) and actor_id is not distinct from (select mhq.current_actor_id())
  );
create policy knowledge_imports_insert on knowledge_imports for insert to mhq_app
  with check (
    (select mhq.is_kb_writer()) and state = 'staging'
    and actor_type = (select mhq.current_actor_type()) and actor_id is not distinct from (select mhq.current_actor_id())
  );
-- (an update's new row must pass the select policy too: so that one holds in any state)
create policy knowledge_imports_update on knowledge_imports for update to mhq_app
  using (
    (select mhq.is_kb_writer()) and state = 'staging'
    and actor_type = (select mhq.current_actor_type()) and actor_id is not distinct from (select mhq.current_actor_id())
  )
  with check (
    (select mhq.is_kb_writer()) and state in ('staging', 'abandoned')
    and actor_type = (select mhq.current_actor_type()) and actor_id is not distinct from (select mhq.current_actor_id())
  );

-- The import an entry was written by (null: written on its own). Never changed afterwards: the
-- entries of an import turn visible when its row goes, without rewriting them (and their indexes).
alter table knowledge_entries add column import_id uuid;
-- serves: an import's entries (publishing, the cleanup of one given up)
create index knowledge_entries_import_idx on knowledge_entries (import_id) where import_id is not null;
-- an import names its entries' ids itself: they are hidden from it until it is published, so an
-- insert cannot answer them (RETURNING needs to read the row)
grant insert (id, import_id) on knowledge_entries to mhq_app;

-- The knowledge imports no reader may see yet: those still being written in steps ('staging') and
-- those given up ('abandoned', deleted in steps). An import's entries become visible at once when
-- its row is deleted (mhq.publish_knowledge_import). Few rows at any time, so readers evaluate it
-- once per statement: `import_id <> all ((select mhq.hidden_knowledge_imports())::uuid[])`.
create or replace function mhq.hidden_knowledge_imports()
returns uuid[]
language sql stable security definer
set search_path = public, pg_temp
as $$
  select coalesce(array_agg(i.id), '{}') from knowledge_imports i
$$;

revoke all on function mhq.hidden_knowledge_imports() from public;
grant execute on function mhq.hidden_knowledge_imports() to mhq_app;

-- Readers never see the entries of an import not yet published; an entry is written into an import
-- only by whoever is writing that import.
drop policy knowledge_entries_select on knowledge_entries;
create policy knowledge_entries_select on knowledge_entries for select to mhq_app
  using (
    ((select mhq.is_hq()) or (select mhq.is_kb_writer()) or ((select mhq.is_agent()) and status = 'published'))
    and (import_id is null or import_id <> all ((select mhq.hidden_knowledge_imports())::uuid[]))
  );
drop policy knowledge_entries_update on knowledge_entries;
create policy knowledge_entries_update on knowledge_entries for update to mhq_app
  using (
    ((select mhq.is_hq()) or (select mhq.is_kb_writer()) or ((select mhq.is_agent()) and status = 'published'))
    and (import_id is null or import_id <> all ((select mhq.hidden_knowledge_imports())::uuid[]))
  )
  with check ((select mhq.is_kb_writer()));
drop policy knowledge_entries_insert on knowledge_entries;
create policy knowledge_entries_insert on knowledge_entries for insert to mhq_app
  with check (
    (select mhq.is_kb_writer())
    and (import_id is null or exists (select 1 from knowledge_imports i where i.id = import_id and i.state = 'staging'))
  );

-- The functions below as in supabase/schemas/functions/.

-- Which of these entries the caller's knowledge import still being written holds: its entries are
-- hidden from every reader, the writer included, until it is published, so the import learns here
-- which of its entries were written (a title taken meanwhile skips one). Security definer; only the
-- caller's own import that is still 'staging'.
create or replace function mhq.knowledge_import_written(p_import uuid, p_ids uuid[])
returns uuid[]
language sql stable security definer
set search_path = public, pg_temp
as $$
  select coalesce(array_agg(k.id), '{}')
    from knowledge_entries k
   where k.id = any(p_ids) and k.import_id = p_import
     and exists (select 1 from knowledge_imports i
                  where i.id = p_import and i.state = 'staging' and mhq.is_kb_writer()
                    and i.actor_type = mhq.current_actor_type() and i.actor_id is not distinct from mhq.current_actor_id())
$$;

revoke all on function mhq.knowledge_import_written(uuid, uuid[]) from public;
grant execute on function mhq.knowledge_import_written(uuid, uuid[]) to mhq_app;

-- Makes the caller's knowledge import visible, every entry of it at once: one short statement after
-- every entry was written and indexed in steps. Its row goes; its entries stay marked with it (no
-- reader hides them any more). Refused (MHQ10) once the import is no longer being written (given up:
-- its lease ran out). Answers the number of entries published.
create or replace function mhq.publish_knowledge_import(p_import uuid)
returns integer
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  published integer;
begin
  delete from knowledge_imports i
   where i.id = p_import and i.state = 'staging' and mhq.is_kb_writer()
     and i.actor_type = mhq.current_actor_type() and i.actor_id is not distinct from mhq.current_actor_id();
  if not found then
    raise exception 'This import is no longer being stored' using errcode = 'MHQ10';
  end if;
  select count(*) into published from knowledge_entries k where k.import_id = p_import;
  return published;
end
$$;

revoke all on function mhq.publish_knowledge_import(uuid) from public;
grant execute on function mhq.publish_knowledge_import(uuid) to mhq_app;
