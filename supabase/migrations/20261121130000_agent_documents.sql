-- Agent documents (seed 003): SOUL (identity), WORKING (the scratchpad of seed 001) and one daily
-- note per date, as markdown, each carrying a version for optimistic concurrency.
--
-- A document never written has no row (it reads as empty, version 0). Writers update with
-- `where version = <expected>`, so of two writers holding the same version exactly one succeeds.

create table agent_documents (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references agents (id) on delete cascade,
  type text not null check (type in ('soul', 'working', 'daily')),
  -- the calendar day of a daily note; null for soul and working
  doc_date date,
  content text not null default '',
  version integer not null default 1 check (version >= 1),
  updated_by_name text not null default '',
  embedding vector(1536),
  fts tsvector generated always as (to_tsvector('english', content)) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint agent_documents_daily_has_date check ((type = 'daily') = (doc_date is not null)),
  -- seed 001: the scratchpad stays small enough to ride in every system prompt
  constraint agent_documents_working_size check (type <> 'working' or char_length(content) <= 2000),
  constraint agent_documents_size check (char_length(content) <= 50000),
  -- serves: reading one document (GET …/documents/{type}, boot) and the upsert of a first write
  constraint agent_documents_slot_key unique nulls not distinct (agent_id, type, doc_date)
);
-- serves: listing an agent's daily notes newest first (GET …/daily)
create index agent_documents_daily_idx on agent_documents (agent_id, doc_date desc) where type = 'daily';
-- serves: full-text search over documents (retrieval scope "documents")
create index agent_documents_fts_idx on agent_documents using gin (fts);
-- serves: vector similarity over documents (retrieval scope "documents")
create index agent_documents_embedding_idx on agent_documents using hnsw (embedding vector_cosine_ops);
-- serves: the re-embedding queue (npm run embed:backfill, the admin button)
create index agent_documents_unembedded_idx on agent_documents (id) where embedding is null;
create trigger agent_documents_updated_at before update on agent_documents
  for each row execute function mhq.touch_updated_at();

alter table agent_documents enable row level security;
-- claim helpers in (select …): evaluated once per query, not per row (see the memories migration)
grant select, insert on agent_documents to mhq_app;
grant update (content, version, updated_by_name, embedding) on agent_documents to mhq_app;
-- an agent reads and writes its own documents only; HQ reads all, HQ admins write all
create policy agent_documents_select on agent_documents for select to mhq_app
  using ((select mhq.is_hq()) or ((select mhq.is_agent()) and agent_id = (select mhq.agent_id())));
create policy agent_documents_insert on agent_documents for insert to mhq_app
  with check ((select mhq.is_hq_admin()) or ((select mhq.is_agent()) and agent_id = (select mhq.agent_id())));
create policy agent_documents_update on agent_documents for update to mhq_app
  using ((select mhq.is_hq_admin()) or ((select mhq.is_agent()) and agent_id = (select mhq.agent_id())))
  with check ((select mhq.is_hq_admin()) or ((select mhq.is_agent()) and agent_id = (select mhq.agent_id())));
