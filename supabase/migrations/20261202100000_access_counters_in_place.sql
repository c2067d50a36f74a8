-- Counting an access rewrites only the row's own page. Every served memory and knowledge entry has
-- its accessed_count and last_accessed_at advanced by the access fold (mhq.fold_access_events) about
-- once a second under traffic. PostgreSQL can update a row in place on its page, without new entries
-- in the table's indexes (a heap-only update), when no indexed column changes and the page has room.
-- A new entry in the vector (HNSW) indexes is the costly part of an update.
--
-- 1. No index names accessed_count. The consolidation's promotion candidates (learning memories
--    used often enough, created before a cut-off) are found by their creation time instead;
--    accessed_count is checked on those rows.
drop index if exists memories_promotion_idx;
create index memories_promotion_idx on memories (created_at)
  where tier = 'learning' and status = 'active' and scope = 'agent';

-- 2. Pages written from now on keep a tenth free for the new versions of their rows.
alter table memories set (fillfactor = 90);
alter table knowledge_entries set (fillfactor = 90);
