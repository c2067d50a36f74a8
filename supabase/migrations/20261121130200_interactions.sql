-- Interactions (seed 002's raw transcripts): every message an agent exchanged with a contact,
-- searchable later as recall memory (full text and vector). `contact_id` names a contact of the
-- memory manager's contacts table, which a later migration adds (and then its foreign key).

create table interactions (
  id uuid primary key default gen_random_uuid(),
  -- the client the conversation belongs to; a field agent's interactions always carry its own
  client_id uuid references clients (id),
  agent_id uuid not null references agents (id) on delete cascade,
  contact_id uuid,
  channel text not null check (channel ~ '^[a-z][a-z0-9_-]{0,31}$'),
  direction text not null check (direction in ('inbound', 'outbound')),
  speaker text not null default '' check (char_length(speaker) <= 200),
  content text not null check (char_length(content) between 1 and 20000),
  occurred_at timestamptz not null default now(),
  embedding vector(1536),
  fts tsvector generated always as (to_tsvector('english', content)) stored,
  created_at timestamptz not null default now()
);
-- serves: the console's Interactions tab (one agent's, newest first)
create index interactions_agent_idx on interactions (agent_id, occurred_at desc);
-- serves: a client's interactions newest first (field agents' reads, client filters)
create index interactions_client_idx on interactions (client_id, occurred_at desc);
-- serves: a contact's history (memory manager, opt-out erasure)
create index interactions_contact_idx on interactions (contact_id, occurred_at desc) where contact_id is not null;
-- serves: full-text recall (?q=, hybrid retrieval scope "interactions")
create index interactions_fts_idx on interactions using gin (fts);
-- serves: vector recall (hybrid retrieval scope "interactions")
create index interactions_embedding_idx on interactions using hnsw (embedding vector_cosine_ops);
-- serves: the re-embedding queue (npm run embed:backfill, the admin button)
create index interactions_unembedded_idx on interactions (id) where embedding is null;

alter table interactions enable row level security;
-- claim helpers in (select …): evaluated once per query, not per row (see the memories migration)
grant select, insert on interactions to mhq_app;
-- Reads: HQ; managers and orchestrators (internal: all, field: their own client's). Specialists
-- write interactions but do not read them back. Isolated agents: nothing.
create policy interactions_select on interactions for select to mhq_app
  using (
    (select mhq.is_hq())
    or ((select mhq.is_internal_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator'))
    or ((select mhq.is_field_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator') and client_id = (select mhq.client_id()))
  );
-- Writes: agents, in their own name; a field agent only for its own client.
create policy interactions_insert on interactions for insert to mhq_app
  with check (
    agent_id = (select mhq.agent_id())
    and ((select mhq.is_internal_agent()) or ((select mhq.is_field_agent()) and client_id = (select mhq.client_id())))
  );
