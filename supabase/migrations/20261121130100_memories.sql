-- Memories (seeds 000, 001, 004): one table for the three tiers, with the fields of seed 004's
-- shared_knowledge. Scope `agent` is private to the owning agent; scope `team` is the internal
-- shared brain (internal agents only: field agents have none, isolated agents no memory at all).
--
-- Memories are never deleted by callers: past the 200-per-agent cap, or when they expire, they are
-- archived. `version` gives PATCH optimistic concurrency.

create table memories (
  id uuid primary key default gen_random_uuid(),
  -- the owner of an agent-scope memory; the author of a team-scope one
  agent_id uuid not null references agents (id) on delete cascade,
  scope text not null default 'agent' check (scope in ('agent', 'team')),
  tier text not null check (tier in ('core', 'working', 'learning')),
  category text not null,
  title text not null check (char_length(title) between 1 and 200),
  content text not null default '' check (char_length(content) <= 20000),
  source text not null default '' check (char_length(source) <= 100),
  confidence double precision not null check (confidence >= 0 and confidence <= 1),
  surprise_score double precision check (surprise_score >= 0 and surprise_score <= 1),
  tags text[] not null default '{}',
  related_ids uuid[] not null default '{}',
  -- decisions: {reasoning, alternatives, assumptions, killCriteria}; outcome: {result, success, notes, scoredAt, outcomeId}
  decision_context jsonb,
  outcome jsonb,
  source_trace_id text check (char_length(source_trace_id) between 1 and 200),
  status text not null default 'active' check (status in ('active', 'resolved', 'archived')),
  resolved_at timestamptz,
  archived_at timestamptz,
  archive_reason text,
  -- low-confidence learning entries (confidence < 0.5) expire 7 days after they are written
  expires_at timestamptz,
  accessed_count integer not null default 0 check (accessed_count >= 0),
  last_accessed_at timestamptz,
  occurred_at timestamptz not null default now(),
  version integer not null default 1 check (version >= 1),
  created_by_name text not null default '',
  embedding vector(1536),
  fts tsvector generated always as (
    setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')
  ) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint memories_category_fits_tier check (
    (tier = 'core' and category in ('identity', 'client', 'procedure', 'preference', 'principle', 'team'))
    or (tier = 'working' and category in ('project', 'thread', 'commitment'))
    or (tier = 'learning' and category in ('decision', 'correction', 'insight', 'outcome', 'pattern', 'strategy', 'lesson'))
  ),
  constraint memories_decision_context_only_on_decisions check (decision_context is null or category = 'decision')
);
-- serves: memory_write dedup by sourceTraceId (one memory per agent and trace)
create unique index memories_trace_key on memories (agent_id, source_trace_id);
-- serves: GET …/memories with tier/category/status filters, the 200-cap count and eviction, boot's
-- pending commitments and recent working items
create index memories_owner_idx on memories (agent_id, status, tier, category, created_at desc);
-- serves: boot's team highlights (recent active team knowledge)
create index memories_team_idx on memories (created_at desc) where scope = 'team' and status = 'active';
-- serves: the lifecycle job expiring low-confidence learning entries
create index memories_expiry_idx on memories (expires_at) where expires_at is not null and status = 'active';
-- serves: tag filters in retrieval
create index memories_tags_idx on memories using gin (tags);
-- serves: full-text search (?q= on the memories list, hybrid retrieval)
create index memories_fts_idx on memories using gin (fts);
-- serves: vector similarity (hybrid retrieval, relevance blending of seed 001)
create index memories_embedding_idx on memories using hnsw (embedding vector_cosine_ops);
-- serves: the re-embedding queue (npm run embed:backfill, the admin button)
create index memories_unembedded_idx on memories (id) where embedding is null;
-- updated_at means "the memory changed": reads that only count an access do not touch it
create trigger memories_updated_at
  before update of tier, category, title, content, confidence, surprise_score, tags, related_ids, decision_context,
    outcome, status on memories
  for each row execute function mhq.touch_updated_at();

alter table memories enable row level security;
grant select, insert on memories to mhq_app;
-- owner, scope and authorship never change after the write
grant update (tier, category, title, content, confidence, surprise_score, tags, related_ids, decision_context,
  outcome, status, resolved_at, archived_at, archive_reason, expires_at, accessed_count, last_accessed_at,
  version, embedding) on memories to mhq_app;
-- agent scope: the owner only. team scope: every internal (non-isolated) agent. HQ reads all; HQ
-- admins write all. Field agents never see team scope.
-- The claim helpers are wrapped in (select …) so Postgres evaluates each once per query (an
-- InitPlan) instead of parsing the claims JSON again for every row (Supabase's RLS advice).
create policy memories_select on memories for select to mhq_app
  using (
    (select mhq.is_hq())
    or ((select mhq.is_agent()) and scope = 'agent' and agent_id = (select mhq.agent_id()))
    or ((select mhq.is_internal_agent()) and scope = 'team')
  );
create policy memories_insert on memories for insert to mhq_app
  with check (
    (select mhq.is_hq_admin())
    or ((select mhq.is_agent()) and scope = 'agent' and agent_id = (select mhq.agent_id()))
    or ((select mhq.is_internal_agent()) and scope = 'team' and agent_id = (select mhq.agent_id()))
  );
create policy memories_update on memories for update to mhq_app
  using (
    (select mhq.is_hq_admin())
    or ((select mhq.is_agent()) and scope = 'agent' and agent_id = (select mhq.agent_id()))
    or ((select mhq.is_internal_agent()) and scope = 'team')
  )
  with check (
    (select mhq.is_hq_admin())
    or ((select mhq.is_agent()) and scope = 'agent' and agent_id = (select mhq.agent_id()))
    or ((select mhq.is_internal_agent()) and scope = 'team')
  );
