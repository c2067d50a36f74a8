-- HQ knowledge base (seed 000, "BJS Knowledge Base"): the franchise operations manual that HQ curates
-- and every non-isolated agent reads. Entries are versioned (every earlier version is kept), archived
-- instead of deleted, searchable by full text and by vector, and count how often agents use them
-- (seed 004, "what actually gets used").
--
-- Who may write: HQ admins and curators, and internal agents granted kb_access 'write'. Field agents,
-- viewers and read-only agents are refused by these policies even if application code has a bug.
-- The hybrid search function lives in the next migration.

-- ── helpers ─────────────────────────────────────────────────────────────────────────────────────
create or replace function mhq.is_kb_writer() returns boolean
language sql stable as $$
  select coalesce(mhq.hq_role() in ('admin', 'curator'), false)
      or (mhq.is_internal_agent() and coalesce(mhq.kb_access() = 'write', false))
$$;

-- array_to_string is only "stable" (it calls element output functions); for text[] it is in fact
-- immutable, which a generated column requires.
create or replace function mhq.tags_text(p_tags text[]) returns text
language sql immutable parallel safe as $$ select coalesce(array_to_string(p_tags, ' '), '') $$;

-- ── knowledge_entries ───────────────────────────────────────────────────────────────────────────
create table knowledge_entries (
  id uuid primary key default gen_random_uuid(),
  title text not null check (length(btrim(title)) between 1 and 200),
  content text not null check (length(content) between 1 and 100000),
  category text not null check (category in (
    'procedure', 'best-practice', 'template', 'skill-doc', 'escalation', 'tool-guide'
  )),
  tags text[] not null default '{}' check (cardinality(tags) <= 20 and array_position(tags, null) is null),
  -- the optimistic-concurrency token: raised by the trigger below on every change, never by callers
  version integer not null default 1 check (version >= 1),
  status text not null default 'published' check (status in ('published', 'archived')),
  -- names (as seed 000 has it) of the agent or HQ user who wrote the entry and who changed it last;
  -- taken from the caller's claims by the trigger below, so nobody writes in someone else's name
  created_by text not null,
  updated_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- null while the embedding provider is unavailable; the backfill fills it in later
  embedding vector(1536),
  fts tsvector generated always as (
    setweight(to_tsvector('english', title), 'A')
    || setweight(to_tsvector('english', mhq.tags_text(tags)), 'A')
    || setweight(to_tsvector('english', content), 'B')
  ) stored,
  -- seed 004 access tracking: bumped when an entry is served to an agent (mhq.touch_knowledge)
  accessed_count integer not null default 0,
  last_accessed_at timestamptz
);

-- serves: POST /knowledge and import — one published entry per title (case-insensitive); archived
-- entries may share a title with their replacement
create unique index knowledge_entries_title_key on knowledge_entries (lower(btrim(title))) where status = 'published';
-- serves: GET /knowledge without q (newest first, optionally by category)
create index knowledge_entries_list_idx on knowledge_entries (status, category, updated_at desc);
-- No GIN index on fts or tags, deliberately. Every request reads this table under row-level
-- security, and Postgres only uses an index for a condition whose operator is leakproof when RLS
-- policies apply (it must not evaluate a caller's condition on rows the policy would hide). The
-- full-text match (@@) and array containment (@>) are not leakproof, so for callers such indexes
-- are never used (checked with EXPLAIN as mhq_app: seq scan) and would only slow down writes. The
-- stored fts column keeps the scan to one cheap match per row; scripts/bench/knowledge.ts measures
-- the whole search at 1k and 10k entries.
-- serves: the semantic half of hybrid_search_knowledge (order by embedding <#> query limit n).
-- Inner product, as Supabase's hybrid search does: every provider returns unit-length vectors, for
-- which it ranks exactly like cosine distance and costs less.
create index knowledge_entries_embedding_idx on knowledge_entries using hnsw (embedding vector_ip_ops);
-- serves: the re-embedding backfill's queue scan (where embedding is null and id > $1 order by id)
create index knowledge_entries_unembedded_idx on knowledge_entries (id) where embedding is null;

-- ── knowledge_entry_versions (append-only: written only by the trigger below) ───────────────────
create table knowledge_entry_versions (
  entry_id uuid not null references knowledge_entries (id) on delete cascade,
  version integer not null,
  title text not null,
  content text not null,
  category text not null,
  tags text[] not null,
  status text not null,
  -- who wrote this version and when (the entry's updated_by / updated_at at the time)
  edited_by text not null,
  edited_at timestamptz not null,
  -- when a newer version replaced it
  replaced_at timestamptz not null default now(),
  -- serves: GET /knowledge/{id}/versions (in version order) and restore (one version of one entry)
  primary key (entry_id, version)
);

-- ── triggers ────────────────────────────────────────────────────────────────────────────────────
create or replace function mhq.knowledge_stamp_author() returns trigger
language plpgsql as $$
declare
  who text := nullif(mhq.claims() ->> 'name', '');
begin
  new.created_by := coalesce(who, new.created_by);
  new.updated_by := coalesce(who, new.updated_by, new.created_by);
  return new;
end
$$;
create trigger knowledge_entries_stamp_author before insert on knowledge_entries
  for each row execute function mhq.knowledge_stamp_author();

-- Every change of what an entry says (title, content, category, tags, status) keeps the previous
-- version and raises the version number. Embedding and access-counter updates are not changes.
-- Security definer so that callers need (and have) no write access to the history itself.
create or replace function mhq.knowledge_keep_version() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if (new.title, new.content, new.category, new.tags, new.status)
     is not distinct from (old.title, old.content, old.category, old.tags, old.status) then
    new.version := old.version;
    new.updated_at := old.updated_at;
    new.updated_by := old.updated_by;
    return new;
  end if;
  insert into knowledge_entry_versions (entry_id, version, title, content, category, tags, status, edited_by, edited_at)
  values (old.id, old.version, old.title, old.content, old.category, old.tags, old.status, old.updated_by, old.updated_at);
  new.version := old.version + 1;
  new.updated_at := now();
  new.updated_by := coalesce(nullif(mhq.claims() ->> 'name', ''), new.updated_by);
  return new;
end
$$;
create trigger knowledge_entries_keep_version before update on knowledge_entries
  for each row execute function mhq.knowledge_keep_version();

-- ── row-level security ──────────────────────────────────────────────────────────────────────────
alter table knowledge_entries enable row level security;
grant select on knowledge_entries to mhq_app;
-- callers write only what an entry says; version, authorship, timestamps and counters are the
-- database's (the triggers above and mhq.touch_knowledge)
grant insert (title, content, category, tags, embedding) on knowledge_entries to mhq_app;
grant update (title, content, category, tags, status, embedding) on knowledge_entries to mhq_app;
-- no delete grant: entries are archived, never deleted

-- Readers: every HQ user and every non-isolated agent. Archived entries are withdrawn from agents,
-- except from the writers who may bring them back. The claim checks are wrapped in `(select …)` so
-- Postgres evaluates them once per query (an InitPlan) instead of once per row — Supabase's RLS
-- performance advice; it matters for search, which scans many rows.
create policy knowledge_entries_select on knowledge_entries for select to mhq_app
  using ((select mhq.is_hq()) or (select mhq.is_kb_writer()) or ((select mhq.is_agent()) and status = 'published'));
create policy knowledge_entries_insert on knowledge_entries for insert to mhq_app
  with check ((select mhq.is_kb_writer()));
-- USING matches what the caller can see, so a reader's update is refused with an error
-- (WITH CHECK fails) instead of silently matching no rows.
create policy knowledge_entries_update on knowledge_entries for update to mhq_app
  using ((select mhq.is_hq()) or (select mhq.is_kb_writer()) or ((select mhq.is_agent()) and status = 'published'))
  with check ((select mhq.is_kb_writer()));

alter table knowledge_entry_versions enable row level security;
grant select on knowledge_entry_versions to mhq_app;
-- a version is visible exactly when its entry is (the subquery runs under the entry's policy)
create policy knowledge_entry_versions_select on knowledge_entry_versions for select to mhq_app
  using (exists (select 1 from knowledge_entries e where e.id = entry_id));

-- ── access tracking (seed 004) ──────────────────────────────────────────────────────────────────
-- Counts that entries were served to the calling agent. Agents (field agents included) may not
-- update entries, so this narrow security-definer function is the only way counters move; it does
-- nothing for HQ users, whose browsing is curation, not use.
create or replace function mhq.touch_knowledge(p_ids uuid[])
returns table (id uuid, accessed_count integer, last_accessed_at timestamptz)
language sql volatile security definer set search_path = public, pg_temp as $$
  update knowledge_entries k
     set accessed_count = k.accessed_count + 1, last_accessed_at = now()
   where k.id = any (p_ids) and k.status = 'published' and mhq.is_agent()
  returning k.id, k.accessed_count, k.last_accessed_at
$$;
revoke all on function mhq.touch_knowledge(uuid[]) from public;
grant execute on function mhq.touch_knowledge(uuid[]) to mhq_app;
