-- Memories, agent documents and the knowledge base: BM25 over postings, vectors of an explicit
-- model, and weighted score fusion — the ranking the interactions already have.
--
-- ── Why ──────────────────────────────────────────────────────────────────────────────────────────
-- * Lexical ranking. The knowledge base ranked every row matching any word of the query with
--   ts_rank_cd (each one's tsvector read back and scored: ~170 ms at 10k entries in PGlite for a
--   message of common words), and memories still dropped every word matching more than 64 rows (a
--   recall loss). Both now score BM25 (k1 1.2, b 0.75) over postings tables written with the rows,
--   in two phases that keep the cost bounded at any size: the query's rarer lexemes (together at
--   most 1,500 postings; the rarest always) pick the best 200 candidates through the postings
--   index, the commoner ones are then scored on those candidates only (a primary-key probe each).
--   A title's (and a knowledge entry's tags') words count twice. The embedded database has no
--   autovacuum: there the statistics job (lib/retrieval/term-stats.ts) vacuums the postings after
--   each fold, so that their index-only scans need not read the table (about half the time).
-- * Fusion. Reciprocal-rank fusion with a weak dense list (averaged word vectors) pulls good
--   lexical hits down. Every search here scores the union of both candidate lists by
--   lexical_weight × BM25 / the best BM25 of the query + (1 − lexical_weight) × max(cosine, 0),
--   so each item carries its 0–1 score; a lexical hit the vector list missed still gets its cosine
--   (its vector is read back), a vector-only hit must be at least min_similarity close.
-- * Models. The searches take the query vector's model as a parameter (query_model), as the
--   interactions search does, and compare only vectors of that model; the transaction setting
--   mhq.embedding_model no longer decides what a search compares.
-- * One knowledge search. search_knowledge serves curators (GET /knowledge?q=, filters, archived
--   entries for writers) and agents (retrieval's knowledge scope) alike.
--
-- ── Statistics without hot rows ──────────────────────────────────────────────────────────────────
-- Document frequencies per corpus (the knowledge base; one agent's own memories; the team's shared
-- memories) live in search_term_stats. Writes never update them: the triggers that write postings
-- append their deltas to search_stats_log (insert only, so concurrent writers share no row), and
-- mhq.fold_search_stats folds the log into the statistics in batches (a job, one at a time, in
-- sorted order). A search reads statistics plus the log not yet folded in one snapshot,
-- so a new row counts at once. The lexeme '' is the corpus itself: df its documents, total_len
-- their summed length.
--
-- Security: the postings and statistics are read only by the security-definer candidate functions
-- below, which apply the source table's read policy themselves from the caller's claims (never
-- from arguments) and return ids and scores; the security-invoker searches read every row again
-- through RLS, so a mistake there could hide a row but never show one. The tables carry read
-- policies mirroring their source tables for anyone reading them directly.

-- ── the old searches go ──────────────────────────────────────────────────────────────────────────
drop function if exists public.hybrid_search_published_knowledge(text, vector, int, float, float, float, int, int);
drop function if exists public.hybrid_search_knowledge(text, vector, int, text, text[], boolean, float, float, int, int);
drop function if exists public.hybrid_search_knowledge(text, vector, int, text, text[], boolean, float, float, int);
drop function if exists public.hybrid_search_memories(text, vector, int, text, uuid, float, float, float, int, int, timestamptz, int);
drop function if exists public.hybrid_search_documents(text, vector, int, uuid, float, float, float, int);
drop function if exists mhq.knowledge_text_ids(text, text, text[], boolean, int);
drop function if exists mhq.knowledge_text_candidates(text, int, int);
drop function if exists mhq.memory_text_candidates(text, text, uuid, timestamptz, int, int);
drop function if exists mhq.memory_vector_candidates(vector, text, uuid, timestamptz, int);
drop function if exists mhq.memory_vector_exact(vector, text, uuid, timestamptz, int);
drop function if exists mhq.memory_vectors_at_most(int, text, uuid, timestamptz);
drop function if exists mhq.published_knowledge_vector_candidates(vector, int);

-- ── postings ─────────────────────────────────────────────────────────────────────────────────────
create or replace function mhq.nil_uuid() returns uuid
language sql immutable
as $$ select '00000000-0000-0000-0000-000000000000'::uuid $$;

-- A document's weighted terms from its stored tsvector: a weight-A position (title, tags) counts 2,
-- any other 1. Stemmed by Postgres's english configuration, stopwords dropped.
create or replace function mhq.weighted_terms(doc tsvector)
returns table (lexeme text, tf real)
language sql immutable
as $$
  select t.lexeme, sum(case when w.w = 'A' then 2 else 1 end)::real
    from unnest(doc) t
    cross join lateral unnest(coalesce(t.weights, array['D'])) as w (w)
   group by t.lexeme
$$;

create table knowledge_postings (
  entry_id uuid not null references knowledge_entries (id) on delete cascade,
  lexeme text not null,
  published boolean not null,
  tf real not null,
  -- the entry's weighted length, repeated so that ranking reads one table
  len real not null,
  primary key (entry_id, lexeme)
);
-- serves: the entries holding a lexeme (phase 1 of mhq.knowledge_lexical_candidates)
create index knowledge_postings_lexeme_idx on knowledge_postings (lexeme) include (entry_id, tf, len, published);

-- Postings of searchable memories only: active ones, and resolved ones of the agent scope.
create table memory_postings (
  memory_id uuid not null references memories (id) on delete cascade,
  lexeme text not null,
  -- the corpus: the owner for agent-scope memories, mhq.nil_uuid() for the team's
  corpus_id uuid not null,
  agent_id uuid not null,
  scope text not null,
  tf real not null,
  len real not null,
  primary key (memory_id, lexeme)
);
-- serves: the memories of one corpus holding a lexeme (phase 1 of mhq.memory_lexical_candidates)
create index memory_postings_lexeme_idx on memory_postings (corpus_id, lexeme) include (memory_id, tf, len, agent_id);

create table search_term_stats (
  corpus text not null check (corpus in ('knowledge', 'memories')),
  corpus_id uuid not null,
  lexeme text not null,
  df integer not null,
  total_len float8 not null default 0,
  primary key (corpus, corpus_id, lexeme)
);
create table search_stats_log (
  corpus text not null check (corpus in ('knowledge', 'memories')),
  corpus_id uuid not null,
  lexeme text not null,
  df_delta integer not null,
  len_delta float8 not null default 0
);
-- serves: the deltas of the query's lexemes not folded yet
create index search_stats_log_idx on search_stats_log (corpus, corpus_id, lexeme);

alter table knowledge_postings enable row level security;
alter table memory_postings enable row level security;
alter table search_term_stats enable row level security;
alter table search_stats_log enable row level security;
grant select on knowledge_postings, memory_postings, search_term_stats to mhq_app;
-- knowledge_entries_select: HQ and knowledge-base writers all entries, other agents published ones
create policy knowledge_postings_select on knowledge_postings for select to mhq_app
  using ((select mhq.is_hq()) or (select mhq.is_kb_writer()) or ((select mhq.is_agent()) and published));
-- memories_select: HQ all; an agent its own agent-scope memories; internal agents the team's
create policy memory_postings_select on memory_postings for select to mhq_app
  using (
    (select mhq.is_hq())
    or ((select mhq.is_agent()) and scope = 'agent' and agent_id = (select mhq.agent_id()))
    or ((select mhq.is_internal_agent()) and scope = 'team')
  );
-- the statistics of a corpus tell which words its rows hold: readable by who may read the corpus
create policy search_term_stats_select on search_term_stats for select to mhq_app
  using (
    (select mhq.is_hq())
    or (corpus = 'knowledge' and (select mhq.is_kb_writer()))
    or (corpus = 'memories' and corpus_id = (select mhq.agent_id()) and (select mhq.is_agent()))
    or (corpus = 'memories' and corpus_id = mhq.nil_uuid() and (select mhq.is_internal_agent()))
  );
-- the log is written by the triggers and folded by the job (both as the owner): nobody else's
create policy search_stats_log_none on search_stats_log for select to mhq_app using (false);

-- (Re)writes the postings of these entries, and logs what that changes in the statistics of the
-- knowledge base (all its entries: curators search archived ones too; agents' searches pick among
-- the published postings only).
create or replace function mhq.index_knowledge(ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
begin
  -- two statements: the new postings may hold the keys of the old ones
  with gone as (
    delete from knowledge_postings p where p.entry_id = any (ids)
    returning p.entry_id, p.lexeme, p.published, p.len
  ),
  deltas as (
    select g.lexeme, -1 as d, 0::float8 as l from gone g
    union all select '', -1, -max(g.len) from gone g group by g.entry_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.lexeme;

  with fresh as (
    insert into knowledge_postings (entry_id, lexeme, published, tf, len)
    select k.id, t.lexeme, k.status = 'published', t.tf, sum(t.tf) over (partition by k.id)
      from knowledge_entries k cross join lateral mhq.weighted_terms(k.fts) t
     where k.id = any (ids)
    returning entry_id, lexeme, published, len
  ),
  deltas as (
    select f.lexeme, 1 as d, 0::float8 as l from fresh f
    union all select '', 1, max(f.len) from fresh f group by f.entry_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.lexeme;
end
$$;
revoke all on function mhq.index_knowledge(uuid[]) from public;

create or replace function mhq.knowledge_index_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    perform mhq.index_knowledge(array(select f.id from fresh f order by f.id));
  else
    -- what an entry says or whether it is published changed (not its counters or its vector)
    perform mhq.index_knowledge(array(
      select f.id from fresh f join gone g on g.id = f.id
       where (f.title, f.content, f.tags, f.status) is distinct from (g.title, g.content, g.tags, g.status)
       order by f.id));
  end if;
  return null;
end
$$;
create trigger knowledge_entries_index_insert after insert on knowledge_entries
  referencing new table as fresh
  for each statement execute function mhq.knowledge_index_trigger();
create trigger knowledge_entries_index_update after update on knowledge_entries
  referencing old table as gone new table as fresh
  for each statement execute function mhq.knowledge_index_trigger();
-- deleted entries' postings go by the foreign key; their statistics with them
create or replace function mhq.knowledge_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l)
    from (
      select t.lexeme, -1 as d, 0::float8 as l from gone g cross join lateral mhq.weighted_terms(g.fts) t
      union all
      select '', -1, -(select sum(t.tf) from mhq.weighted_terms(g.fts) t) from gone g
    ) x
   group by x.lexeme;
  return null;
end
$$;
create trigger knowledge_entries_index_delete after delete on knowledge_entries
  referencing old table as gone
  for each statement execute function mhq.knowledge_deleted_trigger();

-- The same for memories: postings for the searchable ones, statistics per corpus.
create or replace function mhq.index_memories(ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
begin
  -- two statements: the new postings may hold the keys of the old ones
  with gone as (
    delete from memory_postings p where p.memory_id = any (ids)
    returning p.memory_id, p.corpus_id, p.lexeme, p.len
  ),
  deltas as (
    select g.corpus_id, g.lexeme, -1 as d, 0::float8 as l from gone g
    union all select g.corpus_id, '', -1, -max(g.len) from gone g group by g.memory_id, g.corpus_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.corpus_id, x.lexeme;

  with fresh as (
    insert into memory_postings (memory_id, lexeme, corpus_id, agent_id, scope, tf, len)
    select m.id, t.lexeme, case when m.scope = 'team' then mhq.nil_uuid() else m.agent_id end, m.agent_id, m.scope,
           t.tf, sum(t.tf) over (partition by m.id)
      from memories m cross join lateral mhq.weighted_terms(m.fts) t
     where m.id = any (ids) and (m.status = 'active' or (m.scope = 'agent' and m.status = 'resolved'))
    returning memory_id, corpus_id, lexeme, len
  ),
  deltas as (
    select f.corpus_id, f.lexeme, 1 as d, 0::float8 as l from fresh f
    union all select f.corpus_id, '', 1, max(f.len) from fresh f group by f.memory_id, f.corpus_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.corpus_id, x.lexeme;
end
$$;
revoke all on function mhq.index_memories(uuid[]) from public;

create or replace function mhq.memories_index_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    perform mhq.index_memories(array(select f.id from fresh f order by f.id));
  else
    -- what a memory says or whether it is searchable changed (not its counters or its vector)
    perform mhq.index_memories(array(
      select f.id from fresh f join gone g on g.id = f.id
       where (f.title, f.content, f.status) is distinct from (g.title, g.content, g.status)
       order by f.id));
  end if;
  return null;
end
$$;
create trigger memories_index_insert after insert on memories
  referencing new table as fresh
  for each statement execute function mhq.memories_index_trigger();
create trigger memories_index_update after update on memories
  referencing old table as gone new table as fresh
  for each statement execute function mhq.memories_index_trigger();
create or replace function mhq.memories_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l)
    from (
      select case when g.scope = 'team' then mhq.nil_uuid() else g.agent_id end as corpus_id, t.lexeme, -1 as d, 0::float8 as l
        from gone g cross join lateral mhq.weighted_terms(g.fts) t
       where g.status = 'active' or (g.scope = 'agent' and g.status = 'resolved')
      union all
      select case when g.scope = 'team' then mhq.nil_uuid() else g.agent_id end, '', -1, -(select sum(t.tf) from mhq.weighted_terms(g.fts) t)
        from gone g
       where g.status = 'active' or (g.scope = 'agent' and g.status = 'resolved')
    ) x
   group by x.corpus_id, x.lexeme;
  return null;
end
$$;
create trigger memories_index_delete after delete on memories
  referencing old table as gone
  for each statement execute function mhq.memories_deleted_trigger();

-- Folds the log into the statistics (a job: lib/retrieval/term-stats.ts). One fold at a time:
-- whoever does not get the lock skips (the next fold takes what is left). Rows of transactions
-- still open are not visible here and stay for the next fold.
create or replace function mhq.fold_search_stats()
returns integer
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  folded integer;
begin
  if not pg_try_advisory_xact_lock(hashtext('mhq.search_stats')) then
    return 0;
  end if;
  with gone as (
    delete from search_stats_log returning corpus, corpus_id, lexeme, df_delta, len_delta
  )
  insert into search_term_stats as s (corpus, corpus_id, lexeme, df, total_len)
  select g.corpus, g.corpus_id, g.lexeme, sum(g.df_delta), sum(g.len_delta)
    from gone g
   group by g.corpus, g.corpus_id, g.lexeme
   order by g.corpus, g.corpus_id, g.lexeme
  on conflict (corpus, corpus_id, lexeme) do update set df = s.df + excluded.df, total_len = s.total_len + excluded.total_len;
  get diagnostics folded = row_count;
  delete from search_term_stats s where s.df <= 0 and s.lexeme <> '';
  return folded;
end
$$;
revoke all on function mhq.fold_search_stats() from public;
grant execute on function mhq.fold_search_stats() to mhq_app;

-- ── BM25 candidates ──────────────────────────────────────────────────────────────────────────────
-- The query's lexemes (the 32 rarest at most) with their document frequency and BM25 IDF in a
-- corpus, rarest first, and whether each picks candidates (rare: within the 1,500-postings budget;
-- the rarest held by any row always) or is scored on them only. Lexemes no row holds count in the
-- query's IDF mass (coverage) and pick nothing. Internal: called by the security-definer functions.
create or replace function mhq.search_query_terms(p_corpus text, p_corpus_id uuid, query_text text)
returns table (lexeme text, df float8, idf float8, rare boolean, avg_len float8)
language sql stable
set search_path = public, pg_temp
as $$
  with q as (
    select coalesce(array_agg(distinct t.lexeme), '{}') || array[''] as lexemes
      from unnest(to_tsvector('english', coalesce(query_text, ''))) t
  ),
  counts as (
    select u.lexeme, sum(u.df) as df, sum(u.len) as len
      from (
        select s.lexeme, s.df::float8 as df, s.total_len as len
          from search_term_stats s, q
         where s.corpus = p_corpus and s.corpus_id = p_corpus_id and s.lexeme = any (q.lexemes)
        union all
        select l.lexeme, l.df_delta, l.len_delta
          from search_stats_log l, q
         where l.corpus = p_corpus and l.corpus_id = p_corpus_id and l.lexeme = any (q.lexemes)
      ) u
     group by u.lexeme
  ),
  corpus as (
    select greatest(coalesce(sum(c.df), 0), 0)::float8 as n, greatest(coalesce(sum(c.len), 0), 0)::float8 as len
      from counts c where c.lexeme = ''
  ),
  terms as (
    select l.lexeme, greatest(coalesce(c.df, 0), 0)::float8 as df
      from q cross join lateral unnest(q.lexemes) as l (lexeme) left join counts c on c.lexeme = l.lexeme
     where l.lexeme <> ''
     order by 2, l.lexeme
     limit 32
  )
  select t.lexeme, t.df,
         ln(1 + (greatest(corpus.n, t.df) - t.df + 0.5) / (t.df + 0.5)),
         sum(t.df) over (order by t.df, t.lexeme) - t.df = 0 or sum(t.df) over (order by t.df, t.lexeme) <= 1500,
         greatest(corpus.len / nullif(corpus.n, 0), 1)
    from terms t, corpus
   where corpus.n > 0
   order by t.df, t.lexeme
$$;
revoke all on function mhq.search_query_terms(text, uuid, text) from public;

-- (id, score, coverage) of at most max_rows entries, best BM25 first, among the entries the caller
-- may read by knowledge_entries_select (archived ones only when asked for, and only for HQ and
-- knowledge-base writers). coverage: the share of the query's IDF mass an entry matches.
create or replace function mhq.knowledge_lexical_candidates(
  query_text text, category_filter text, tag_filter text[], include_archived boolean, max_rows int
)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
as $$
#variable_conflict use_column
declare
  archived boolean;
  terms record;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  total_idf float8 := 0;
  avg_len float8;
begin
  if coalesce(query_text, '') = '' or not (mhq.is_hq() or mhq.is_agent()) then
    return;
  end if;
  archived := include_archived and (mhq.is_hq() or mhq.is_kb_writer());
  for terms in select * from mhq.search_query_terms('knowledge', mhq.nil_uuid(), query_text) loop
    if terms.df = 0 then
      null;
    elsif terms.rare then
      rare := rare || terms.lexeme; rare_idf := rare_idf || terms.idf;
    else
      common := common || terms.lexeme; common_idf := common_idf || terms.idf;
    end if;
    total_idf := total_idf + terms.idf;
    avg_len := terms.avg_len;
  end loop;
  if cardinality(rare) = 0 then
    return;
  end if;
  -- dynamic: planned for these arrays every time
  return query execute
    'with q as (select * from unnest($1::text[], $2::float8[]) as q (lexeme, idf)),
          cq as (select * from unnest($3::text[], $4::float8[]) as q (lexeme, idf)),
          phase1 as (
            select p.entry_id as id,
                   sum(q.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / $5))) as score,
                   sum(q.idf) as matched
              from q join knowledge_postings p on p.lexeme = q.lexeme
             where (p.published or $6)
               and (($7::text is null and $8::text[] is null)
                    or exists (select 1 from knowledge_entries k
                                where k.id = p.entry_id and ($7::text is null or k.category = $7)
                                  and ($8::text[] is null or k.tags @> $8)))
             group by p.entry_id
             order by 2 desc, 1
             limit 200),
          phase2 as (
            -- one primary-key probe per candidate and common lexeme
            select f.id,
                   sum(cq.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / $5))) as score,
                   sum(cq.idf) as matched
              from phase1 f cross join cq
              cross join lateral (select x.tf, x.len from knowledge_postings x where x.entry_id = f.id and x.lexeme = cq.lexeme) p
             group by f.id)
     select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / $9)::float8
       from phase1 f left join phase2 s on s.id = f.id
      order by 2 desc, f.id
      limit $10'
    using rare, rare_idf, common, common_idf, avg_len, archived, category_filter, tag_filter, total_idf, max_rows;
end
$$;
revoke all on function mhq.knowledge_lexical_candidates(text, text, text[], boolean, int) from public;
grant execute on function mhq.knowledge_lexical_candidates(text, text, text[], boolean, int) to mhq_app;

-- The same over memories: one agent's own (memory_scope 'agent', owner_id the agent) or the
-- team's (memory_scope 'team', owner_id null or one author), among the rows the caller may read by
-- memories_select. Expiry is left to the search, which reads every row again.
create or replace function mhq.memory_lexical_candidates(query_text text, memory_scope text, owner_id uuid, max_rows int)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
as $$
#variable_conflict use_column
declare
  own boolean := memory_scope = 'agent';
  corpus uuid;
  terms record;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  total_idf float8 := 0;
  avg_len float8;
begin
  if coalesce(query_text, '') = '' or memory_scope not in ('agent', 'team') or (own and owner_id is null) then
    return;
  end if;
  if not (mhq.is_hq() or (own and mhq.is_agent() and owner_id = mhq.agent_id()) or (not own and mhq.is_internal_agent())) then
    return;
  end if;
  corpus := case when own then owner_id else mhq.nil_uuid() end;
  for terms in select * from mhq.search_query_terms('memories', corpus, query_text) loop
    if terms.df = 0 then
      null;
    elsif terms.rare then
      rare := rare || terms.lexeme; rare_idf := rare_idf || terms.idf;
    else
      common := common || terms.lexeme; common_idf := common_idf || terms.idf;
    end if;
    total_idf := total_idf + terms.idf;
    avg_len := terms.avg_len;
  end loop;
  if cardinality(rare) = 0 then
    return;
  end if;
  return query execute
    'with q as (select * from unnest($1::text[], $2::float8[]) as q (lexeme, idf)),
          cq as (select * from unnest($3::text[], $4::float8[]) as q (lexeme, idf)),
          phase1 as (
            select p.memory_id as id,
                   sum(q.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / $5))) as score,
                   sum(q.idf) as matched
              from q join memory_postings p on p.corpus_id = $6 and p.lexeme = q.lexeme
             where ($7::uuid is null or p.agent_id = $7)
             group by p.memory_id
             order by 2 desc, 1
             limit 200),
          phase2 as (
            -- one primary-key probe per candidate and common lexeme
            select f.id,
                   sum(cq.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / $5))) as score,
                   sum(cq.idf) as matched
              from phase1 f cross join cq
              cross join lateral (select x.tf, x.len from memory_postings x where x.memory_id = f.id and x.lexeme = cq.lexeme) p
             group by f.id)
     select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / $8)::float8
       from phase1 f left join phase2 s on s.id = f.id
      order by 2 desc, f.id
      limit $9'
    using rare, rare_idf, common, common_idf, avg_len, corpus, case when own then null else owner_id end, total_idf, max_rows;
end
$$;
revoke all on function mhq.memory_lexical_candidates(text, text, uuid, int) from public;
grant execute on function mhq.memory_lexical_candidates(text, text, uuid, int) to mhq_app;

-- ── vector candidates of one model ───────────────────────────────────────────────────────────────
-- The planner settings (enable_seqscan/bitmapscan/sort = off, forcing the HNSW walk) stay, by
-- measurement: EXPLAIN ANALYZE of these statements as an agent, 20 messages, at 10k memories of one
-- agent + 1k team memories of another + 10k knowledge entries, hnsw.ef_search 40, iterative scans.
--   * The team's memories (1k of 11k rows): without the settings both engines sort every team row
--     (bitmap scan of memories_team_idx + top-N sort). PostgreSQL 15: 13.0 ms against 3.7 ms for
--     the HNSW walk (p95 of the statement 14.2 vs 6.0 ms). PGlite: 15.2 ms against 12.7 ms p50 for
--     the walk. The sort grows with the team's memories, the walk does not.
--   * One agent's own 10k memories, and the 10k published entries: the same HNSW plan with or
--     without the settings on both engines, in the same time (PostgreSQL 15: 0.9–1.8 ms per
--     statement either way; PGlite 1.2–2.2 ms either way); recall@20 against the exact order
--     0.93–0.96 for memories and 0.77–0.95 for entries, varying between runs either way.
--   So forcing costs nothing where the planner already walks the graph and saves a full sort where
--   a filter makes it guess otherwise.
do $do$
declare
  vector_version int[] := (
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] from pg_extension where extname = 'vector'
  );
  iterative text := case when vector_version >= array[0, 8, 0] then 'set hnsw.iterative_scan = relaxed_order' else '' end;
begin
  execute format($fn$
create or replace function mhq.memory_vector_candidates(
  query_embedding vector(1536), query_model text, memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language sql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
%1$s
as $$
  select set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  select m.id, m.embedding <=> query_embedding
    from memories m
   where m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
     and (m.status = 'active' or (memory_scope = 'agent' and m.status = 'resolved'))
     and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
     and m.embedding_model = query_model
   order by m.embedding <=> query_embedding
   limit max_rows;
$$;

create or replace function mhq.published_knowledge_vector_candidates(query_embedding vector(1536), query_model text, max_rows int)
returns table (id uuid, distance float8)
language sql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
%1$s
as $$
  select set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  select k.id, k.embedding <#> query_embedding
    from knowledge_entries k
   where k.status = 'published' and k.embedding is not null and k.embedding_model = query_model
   order by k.embedding <#> query_embedding
   limit max_rows;
$$;
$fn$, iterative);
end
$do$;
revoke all on function mhq.memory_vector_candidates(vector, text, text, uuid, timestamptz, int) from public;
grant execute on function mhq.memory_vector_candidates(vector, text, text, uuid, timestamptz, int) to mhq_app;
revoke all on function mhq.published_knowledge_vector_candidates(vector, text, int) from public;
grant execute on function mhq.published_knowledge_vector_candidates(vector, text, int) to mhq_app;

create or replace function mhq.memory_vector_exact(
  query_embedding vector(1536), query_model text, memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language sql stable security invoker
as $$
  select u.id, u.distance from (
    select m.id, m.embedding <=> query_embedding as distance
      from memories m
     where memory_scope = 'agent' and m.agent_id = owner_id and m.scope = 'agent' and m.status in ('active', 'resolved')
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
       and m.embedding_model = query_model
    union all
    select m.id, m.embedding <=> query_embedding
      from memories m
     where memory_scope = 'team' and m.scope = 'team' and m.status = 'active' and (owner_id is null or m.agent_id = owner_id)
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
       and m.embedding_model = query_model
  ) u
  order by u.distance + 0
  limit max_rows;
$$;
revoke all on function mhq.memory_vector_exact(vector, text, text, uuid, timestamptz, int) from public;
grant execute on function mhq.memory_vector_exact(vector, text, text, uuid, timestamptz, int) to mhq_app;

-- How many searchable memories a corpus holds (its statistics and the log not folded yet): what
-- decides between ranking vectors exactly and walking HNSW, without counting rows on every search.
-- Only for a caller who may read the corpus (memories_select); 0 for anyone else.
create or replace function mhq.memory_corpus_size(memory_scope text, owner_id uuid)
returns float8
language sql stable security definer
set search_path = public, pg_temp
as $$
  select coalesce(sum(u.df), 0)::float8
    from (
      select s.df::float8 as df from search_term_stats s
       where s.corpus = 'memories' and s.corpus_id = case when memory_scope = 'agent' then owner_id else mhq.nil_uuid() end and s.lexeme = ''
      union all
      select l.df_delta from search_stats_log l
       where l.corpus = 'memories' and l.corpus_id = case when memory_scope = 'agent' then owner_id else mhq.nil_uuid() end and l.lexeme = ''
    ) u
   where mhq.is_hq()
      or (memory_scope = 'agent' and mhq.is_agent() and owner_id = mhq.agent_id())
      or (memory_scope = 'team' and mhq.is_internal_agent())
$$;
revoke all on function mhq.memory_corpus_size(text, uuid) from public;
grant execute on function mhq.memory_corpus_size(text, uuid) to mhq_app;

-- ── the searches: weighted scores ────────────────────────────────────────────────────────────────
-- Each returns its rows best first with score (0–1), lexical_score (BM25 / the best BM25 of the
-- query, 0–1), coverage, similarity (cosine; null without a vector of query_model) and each row's
-- rank in the lexical and in the vector list (null when that list did not find it).

-- memory_scope 'agent': the owner's private memories, active and resolved (a resolved thread is
-- still history worth recalling). 'team': the team's shared memories, active ones (RLS: internal
-- agents and HQ only); owner_id narrows them to one author.
create or replace function public.search_memories(
  query_text text,
  query_embedding vector(1536),
  query_model text,
  match_count int,
  memory_scope text default 'agent',
  owner_id uuid default null,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0,
  exact_scan_max int default 300,
  as_of timestamptz default now()
)
returns table (
  id uuid,
  agent_id uuid,
  scope text,
  tier text,
  category text,
  title text,
  content text,
  tags text[],
  confidence float8,
  created_by_name text,
  occurred_at timestamptz,
  created_at timestamptz,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql volatile security invoker
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count * 2, 20);
  own boolean := memory_scope = 'agent';
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
begin
  if memory_scope not in ('agent', 'team') then
    raise exception 'memory_scope must be agent or team' using errcode = '22023';
  end if;
  if own and owner_id is null then
    raise exception 'owner_id is required for agent-scope memories' using errcode = '22023';
  end if;
  select coalesce(array_agg(c.id order by c.score desc, c.id), '{}'), coalesce(array_agg(c.score order by c.score desc, c.id), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc, c.id), '{}')
    into lex_ids, lex_scores, lex_cover
    from mhq.memory_lexical_candidates(query_text, memory_scope, owner_id, pool) c;
  best := coalesce(lex_scores[1], 0);

  if query_embedding is not null and query_model is not null then
    if mhq.memory_corpus_size(memory_scope, owner_id) <= exact_scan_max then
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.memory_vector_exact(query_embedding, query_model, memory_scope, owner_id, as_of, pool) n
       where 1 - n.distance >= min_similarity;
    else
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.memory_vector_candidates(query_embedding, query_model, memory_scope, owner_id, as_of, pool) n
       where 1 - n.distance >= min_similarity;
    end if;
  end if;

  return query
  with lex as (
    select l.id, l.score, l.coverage, l.rank_ix from unnest(lex_ids, lex_scores, lex_cover) with ordinality as l (id, score, coverage, rank_ix)
  ),
  vec as (
    select v.id, v.sim, v.rank_ix from unnest(vec_ids, vec_sims) with ordinality as v (id, sim, rank_ix)
  ),
  found_rows as (
    -- a vector is read back only for lexical hits the nearest rows did not include
    select m.*, lex.score as bm25, lex.coverage as cover, lex.rank_ix as lex_rank, vec.rank_ix as vec_rank,
           coalesce(vec.sim, case when vec.id is null and query_embedding is not null and m.embedding_model = query_model
                                  then 1 - (m.embedding <=> query_embedding) end) as sim
      from memories m left join lex on lex.id = m.id left join vec on vec.id = m.id
     -- the candidates' filters once more, on the rows as RLS lets the caller read them
     where m.id = any (lex_ids || vec_ids)
       and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
       and (m.status = 'active' or (own and m.status = 'resolved'))
       and (m.expires_at is null or m.expires_at > as_of)
  )
  select r.id, r.agent_id, r.scope, r.tier, r.category, r.title, r.content, r.tags, r.confidence, r.created_by_name,
         r.occurred_at, r.created_at,
         (lexical_weight * coalesce(r.bm25 / nullif(best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(best, 0), 0)::float8, coalesce(r.cover, 0)::float8, r.sim::float8, r.lex_rank, r.vec_rank
    from found_rows r
   order by 13 desc, r.id
   limit match_count;
end
$$;
revoke all on function public.search_memories(text, vector, text, int, text, uuid, float8, float8, int, timestamptz) from public;
grant execute on function public.search_memories(text, vector, text, int, text, uuid, float8, float8, int, timestamptz) to mhq_app;

-- An agent's documents (SOUL, scratchpad, daily notes): few per agent, so both halves rank every
-- document of the owner exactly — BM25 over their stored tsvectors, computed here (the corpus is
-- the owner's documents), and cosine similarity of vectors of query_model.
create or replace function public.search_documents(
  query_text text,
  query_embedding vector(1536),
  query_model text,
  match_count int,
  owner_id uuid,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0
)
returns table (
  id uuid,
  agent_id uuid,
  type text,
  doc_date date,
  content text,
  updated_at timestamptz,
  created_at timestamptz,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language sql stable security invoker
as $$
  with docs as (
    select d.id, d.fts, case when query_embedding is not null and d.embedding_model = query_model
                             then 1 - (d.embedding <=> query_embedding) end as sim
      from agent_documents d
     where d.agent_id = owner_id and d.content <> ''
  ),
  q as (select distinct t.lexeme from unnest(to_tsvector('english', coalesce(query_text, ''))) t),
  corpus as (select count(*)::float8 as n, greatest(avg(length(d.fts)), 1)::float8 as avg_len from docs d),
  tfs as (
    select d.id, t.lexeme, coalesce(array_length(t.positions, 1), 1)::float8 as tf, length(d.fts)::float8 as len
      from docs d cross join lateral unnest(d.fts) t
     where t.lexeme in (select q.lexeme from q)
  ),
  idf as (
    select t.lexeme, ln(1 + (corpus.n - count(*) + 0.5) / (count(*) + 0.5)) as idf
      from tfs t, corpus group by t.lexeme, corpus.n
  ),
  lex as (
    select t.id, sum(i.idf * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * t.len / corpus.avg_len))) as bm25, sum(i.idf) as matched
      from tfs t join idf i on i.lexeme = t.lexeme, corpus
     group by t.id
  ),
  total as (
    -- every query lexeme's IDF, those no document holds at their highest
    select sum(coalesce(i.idf, ln(1 + (corpus.n + 0.5) / 0.5))) as idf
      from q left join idf i on i.lexeme = q.lexeme, corpus
  ),
  ranked as (
    select d.id, lex.bm25, lex.matched, d.sim,
           case when lex.id is not null then row_number() over (order by lex.bm25 desc nulls last, d.id) end as lex_rank,
           case when d.sim >= min_similarity then row_number() over (order by d.sim desc nulls last, d.id) end as vec_rank,
           max(lex.bm25) over () as best
      from docs d left join lex on lex.id = d.id
  )
  select x.id, x.agent_id, x.type, x.doc_date, x.content, x.updated_at, x.created_at,
         (lexical_weight * coalesce(r.bm25 / nullif(r.best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(r.best, 0), 0)::float8,
         coalesce(r.matched / nullif(total.idf, 0), 0)::float8,
         r.sim::float8, r.lex_rank, r.vec_rank
    from ranked r join agent_documents x on x.id = r.id, total
   where r.lex_rank is not null or r.vec_rank is not null
   order by 8 desc, r.id
   limit match_count
$$;
revoke all on function public.search_documents(text, vector, text, int, uuid, float8, float8) from public;
grant execute on function public.search_documents(text, vector, text, int, uuid, float8, float8) to mhq_app;

-- The knowledge base, for curators and agents alike: published entries (and archived ones with
-- include_archived, for who may read them), optionally one category and entries holding all of
-- tag_filter. Vectors: through HNSW, or ranked exactly when the filters leave at most
-- exact_scan_max entries; iterative scans keep a filtered HNSW walk from coming back short.
do $do$
declare
  vector_version int[] := (
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] from pg_extension where extname = 'vector'
  );
  iterative text := case when vector_version >= array[0, 8, 0] then 'set hnsw.iterative_scan = relaxed_order' else '' end;
begin
  execute format($fn$
create or replace function public.search_knowledge(
  query_text text,
  query_embedding vector(1536),
  query_model text,
  match_count int,
  category_filter text default null,
  tag_filter text[] default null,
  include_archived boolean default false,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0,
  exact_scan_max int default 1000
)
returns table (
  id uuid,
  title text,
  content text,
  category text,
  tags text[],
  version int,
  status text,
  created_by text,
  updated_by text,
  created_at timestamptz,
  updated_at timestamptz,
  accessed_count int,
  last_accessed_at timestamptz,
  has_embedding boolean,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql volatile security invoker
set enable_seqscan = on
set enable_bitmapscan = on
set enable_sort = on
set hnsw.ef_search = 100
%s
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count * 2, 20);
  exact boolean := true;
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
begin
  select coalesce(array_agg(c.id order by c.score desc, c.id), '{}'), coalesce(array_agg(c.score order by c.score desc, c.id), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc, c.id), '{}')
    into lex_ids, lex_scores, lex_cover
    from mhq.knowledge_lexical_candidates(query_text, category_filter, tag_filter, include_archived, pool) c;
  best := coalesce(lex_scores[1], 0);

  if query_embedding is not null and query_model is not null then
    if category_filter is null and tag_filter is null and not include_archived then
      -- inner product: the index's operator; the vectors are unit length, so -(a <#> b) is the cosine
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(-n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.published_knowledge_vector_candidates(query_embedding, query_model, pool) n
       where -n.distance >= min_similarity;
    else
      if category_filter is not null or tag_filter is not null then
        select count(*) <= exact_scan_max into exact
          from (
            select 1 from knowledge_entries k
             where k.embedding is not null and k.embedding_model = query_model
               and (include_archived or k.status = 'published')
               and (category_filter is null or k.category = category_filter)
               and (tag_filter is null or k.tags @> tag_filter)
             limit exact_scan_max + 1
          ) filtered;
      else
        exact := false;
      end if;
      if not exact then
        perform set_config('enable_seqscan', 'off', true);
        perform set_config('enable_bitmapscan', 'off', true);
        perform set_config('enable_sort', 'off', true);
      end if;
      -- dynamic so that it is planned for these settings and these filter values every time
      execute $q$
        select coalesce(array_agg(nearest.id order by nearest.distance, nearest.id), '{}'),
               coalesce(array_agg(-nearest.distance order by nearest.distance, nearest.id), '{}')
          from (
            select k.id, k.embedding <#> $1 as distance
              from knowledge_entries k
             where k.embedding is not null and k.embedding_model = $6
               and ($2 or k.status = 'published')
               and ($3::text is null or k.category = $3)
               and ($4::text[] is null or k.tags @> $4)
             order by k.embedding <#> $1
             limit $5
          ) nearest
         where -nearest.distance >= $7
      $q$ into vec_ids, vec_sims using query_embedding, include_archived, category_filter, tag_filter, pool, query_model, min_similarity;
      perform set_config('enable_seqscan', 'on', true);
      perform set_config('enable_bitmapscan', 'on', true);
      perform set_config('enable_sort', 'on', true);
    end if;
  end if;

  return query
  with lex as (
    select l.id, l.score, l.coverage, l.rank_ix from unnest(lex_ids, lex_scores, lex_cover) with ordinality as l (id, score, coverage, rank_ix)
  ),
  vec as (
    select v.id, v.sim, v.rank_ix from unnest(vec_ids, vec_sims) with ordinality as v (id, sim, rank_ix)
  ),
  found_rows as (
    select k.*, lex.score as bm25, lex.coverage as cover, lex.rank_ix as lex_rank, vec.rank_ix as vec_rank,
           coalesce(vec.sim, case when vec.id is null and query_embedding is not null and k.embedding_model = query_model
                                  then -(k.embedding <#> query_embedding) end) as sim
      from knowledge_entries k left join lex on lex.id = k.id left join vec on vec.id = k.id
     -- the candidates' filters once more, on the rows as RLS lets the caller read them
     where k.id = any (lex_ids || vec_ids)
       and (include_archived or k.status = 'published')
       and (category_filter is null or k.category = category_filter)
       and (tag_filter is null or k.tags @> tag_filter)
  )
  select r.id, r.title, r.content, r.category, r.tags, r.version, r.status, r.created_by, r.updated_by,
         r.created_at, r.updated_at, r.accessed_count, r.last_accessed_at, r.embedding is not null,
         (lexical_weight * coalesce(r.bm25 / nullif(best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(best, 0), 0)::float8, coalesce(r.cover, 0)::float8, r.sim::float8, r.lex_rank, r.vec_rank
    from found_rows r
   order by 15 desc, r.id
   limit match_count;
end
$$
$fn$, iterative);
end
$do$;
revoke all on function public.search_knowledge(text, vector, text, int, text, text[], boolean, float8, float8, int) from public;
grant execute on function public.search_knowledge(text, vector, text, int, text, text[], boolean, float8, float8, int) to mhq_app;

-- Rows written before this migration get their postings, and the statistics their counts.
select mhq.index_knowledge(array(select k.id from knowledge_entries k order by k.id));
select mhq.index_memories(array(select m.id from memories m order by m.id));
select mhq.fold_search_stats();
