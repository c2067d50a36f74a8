-- ── fewer first-phase candidates, and common words read the cheaper way ─────────────────────────
-- Each BM25 search first ranks the documents holding the query's rarest lexemes (phase 1), then
-- adds the common lexemes' weight to the best of them (phase 2), and keeps max_rows.
--
-- Phase 1 now keeps the best 100 documents instead of 200. The searches keep 20 (memories,
-- knowledge) or 50 (conversations) of them, and phase 2 costs one index probe per kept document, so
-- half the candidates is about half of phase 2. Measured on the retrieval bench's 10k corpus:
-- conversations' candidates 6.9 → 5.3 ms p50 (p95 10.1 → 7.9), memories' 2.7 → 2.2 ms. On the
-- LoCoMo development conversations recall@5 (0.727) and MRR (0.598) are unchanged and recall@10
-- moved 0.805 → 0.804: a document outside the rare-lexeme top 100 hardly ever makes the top 10.
--
-- Knowledge, phase 2: each common lexeme is read the cheaper of two ways. A generic plan joined the
-- candidates to all the postings of the common lexemes, whatever their number: a lexeme found in
-- every entry of a 10k knowledge base meant 10k postings read for 100 candidates. Now a lexeme in
-- more than probe_df entries is looked up per candidate (one primary-key probe each), and a rarer
-- one is read whole and joined. One probe costs about as much as reading 15 postings (measured on
-- the embedded database), hence probe_df = 15 × the candidates. Same scores, same order; a query
-- whose common word is in every entry of the bench's 10k knowledge base went from 8.9 to 6.0 ms.
--
-- The functions are otherwise as the cached-plans migration defined them, with the generic plans
-- the generic-plans migration set (create or replace resets a function's settings).

-- Memories: an agent's own, or the team's.
create or replace function mhq.memory_lexical_candidates(query_text text, memory_scope text, owner_id uuid, max_rows int)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
as $$
#variable_conflict use_column
declare
  own boolean := memory_scope = 'agent';
  corpus_key uuid;
  author uuid := case when memory_scope = 'agent' then null else owner_id end;
  terms record;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  total_idf float8 := 0;
  avg_len float8;
  candidate_rows constant int := 100;
begin
  if coalesce(query_text, '') = '' or memory_scope not in ('agent', 'team') or (own and owner_id is null) then
    return;
  end if;
  if not (mhq.is_hq() or (own and mhq.is_agent() and owner_id = mhq.agent_id()) or (not own and mhq.is_internal_agent())) then
    return;
  end if;
  corpus_key := case when own then owner_id else mhq.nil_uuid() end;
  for terms in select * from mhq.search_query_terms('memories', corpus_key, query_text) loop
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
  return query
    with q as (select * from unnest(rare, rare_idf) as q (lexeme, idf)),
         cq as (select * from unnest(common, common_idf) as q (lexeme, idf)),
         phase1 as (
           select p.memory_id as id,
                  sum(q.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(q.idf) as matched
             from q join memory_postings p on p.corpus_id = corpus_key and p.lexeme = q.lexeme
            where (author is null or p.agent_id = author)
            group by p.memory_id
            order by 2 desc, 1
            limit candidate_rows),
         phase2 as (
           -- one primary-key probe per candidate and common lexeme
           select f.id,
                  sum(cq.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(cq.idf) as matched
             from phase1 f cross join cq
             cross join lateral (select x.tf, x.len from memory_postings x where x.memory_id = f.id and x.lexeme = cq.lexeme) p
            group by f.id)
    select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / total_idf)::float8
      from phase1 f left join phase2 s on s.id = f.id
     order by 2 desc, f.id
     limit max_rows;
end
$$;

alter function mhq.memory_lexical_candidates(text, text, uuid, int) set plan_cache_mode = force_generic_plan;

-- The knowledge base.
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
  common_probe boolean[] := '{}';
  candidate_rows constant int := 100;
  -- a common lexeme in more entries than this is probed per candidate, not read whole
  probe_df constant float8 := 15 * candidate_rows;
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
      common_probe := common_probe || (terms.df > probe_df);
    end if;
    total_idf := total_idf + terms.idf;
    avg_len := terms.avg_len;
  end loop;
  if cardinality(rare) = 0 then
    return;
  end if;
  return query
    with q as (select * from unnest(rare, rare_idf) as q (lexeme, idf)),
         cq as (select * from unnest(common, common_idf, common_probe) as q (lexeme, idf, probe)),
         phase1 as (
           select p.entry_id as id,
                  sum(q.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(q.idf) as matched
             from q join knowledge_postings p on p.lexeme = q.lexeme
            where (p.published or archived)
              and ((category_filter is null and tag_filter is null)
                   or exists (select 1 from knowledge_entries k
                               where k.id = p.entry_id and (category_filter is null or k.category = category_filter)
                                 and (tag_filter is null or k.tags @> tag_filter)))
            group by p.entry_id
            order by 2 desc, 1
            limit candidate_rows),
         phase2 as (
           select x.id,
                  sum(x.idf * x.tf * 2.2 / (x.tf + 1.2 * (0.25 + 0.75 * x.len / avg_len))) as score,
                  sum(x.idf) as matched
             from (
               -- a lexeme in at most probe_df entries: its postings read once, joined to the candidates
               select f.id, cq.idf, p.tf, p.len
                 from cq join knowledge_postings p on p.lexeme = cq.lexeme join phase1 f on f.id = p.entry_id
                where not cq.probe
               union all
               -- a more common one: one primary-key probe per candidate (offset 0 keeps the planner
               -- from turning the probes back into a join over all its postings)
               select f.id, cq.idf, p.tf, p.len
                 from phase1 f cross join cq
                 cross join lateral (select x.tf, x.len from knowledge_postings x
                                      where x.entry_id = f.id and x.lexeme = cq.lexeme offset 0) p
                where cq.probe) x
            group by x.id)
    select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / total_idf)::float8
      from phase1 f left join phase2 s on s.id = f.id
     order by 2 desc, f.id
     limit max_rows;
end
$$;

alter function mhq.knowledge_lexical_candidates(text, text, text[], boolean, int) set plan_cache_mode = force_generic_plan;

-- Conversations (BM25F, see the conversation-ranking migration).
create or replace function mhq.interaction_lexical_candidates(query_text text, agent_filter uuid, client_filter uuid, max_rows int)
returns table (id uuid, score float8, coverage float8, conversation_coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
as $$
#variable_conflict use_column
declare
  k1 constant float8 := 1.2;
  b constant float8 := 0.75;
  budget_rows constant int := 1500;
  candidate_rows constant int := 100;
  by_agent boolean;
  kind text;
  scope uuid;
  n float8;
  total_len float8;
  avg_len float8;
  lexemes text[];
  dfs float8[];
  idfs float8[];
  total_idf float8;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  rare_cap int[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  budget float8 := 0;
begin
  if coalesce(query_text, '') = '' or (agent_filter is null and client_filter is null) then
    return;
  end if;
  if mhq.is_hq() or (mhq.is_internal_agent() and mhq.agent_role() in ('manager', 'orchestrator')) then
    null;
  elsif mhq.is_field_agent() and mhq.agent_role() in ('manager', 'orchestrator') and mhq.client_id() is not null then
    if client_filter is not null and client_filter <> mhq.client_id() then
      return;
    end if;
    client_filter := mhq.client_id();
  else
    return;
  end if;
  by_agent := agent_filter is not null;
  if by_agent then
    kind := 'agent'; scope := agent_filter;
  else
    kind := 'client'; scope := client_filter;
  end if;

  select array_agg(distinct t.lexeme) into lexemes from unnest(to_tsvector('english', query_text)) t;
  if lexemes is null then
    return;
  end if;

  select s.n, s.total_len into n, total_len from interaction_corpus_stats s where s.scope_kind = kind and s.scope_id = scope;
  if not found then
    select count(*), coalesce(sum(d.len), 0) into n, total_len
      from interaction_search_docs d
     where (by_agent and d.agent_id = scope) or (not by_agent and d.client_id = scope);
  end if;
  if n = 0 then
    return;
  end if;
  avg_len := greatest(total_len / n, 1);

  -- document frequencies: from the statistics, or counted for lexemes they do not know yet
  select array_agg(x.l order by x.d, x.l), array_agg(x.d order by x.d, x.l) into lexemes, dfs
    from (
      select u.l, coalesce(
        (select s.df from interaction_term_stats s where s.scope_kind = kind and s.scope_id = scope and s.lexeme = u.l),
        case when by_agent
             then (select count(*) from (select 1 from interaction_postings p where p.agent_id = scope and p.lexeme = u.l limit 1500) c)
             else (select count(*) from (select 1 from interaction_postings p where p.client_id = scope and p.lexeme = u.l limit 1500) c)
        end
      )::float8 as d
        from unnest(lexemes) as u (l)
    ) x;
  select array_agg(ln(1 + (greatest(n, d) - d + 0.5) / (d + 0.5)) order by o) into idfs
    from unnest(dfs) with ordinality as u (d, o);
  select sum(x) into total_idf from unnest(idfs) x;

  -- the rarest lexemes, together at most `budget_rows` postings, find the candidates; a lexeme
  -- that alone holds more is read in impact order, only its strongest `budget_rows` rows
  for i in 1 .. array_length(lexemes, 1) loop
    continue when dfs[i] = 0;
    if budget = 0 or budget + dfs[i] <= budget_rows then
      rare := rare || lexemes[i];
      rare_idf := rare_idf || idfs[i];
      rare_cap := rare_cap || least(dfs[i], budget_rows)::int;
      budget := budget + least(dfs[i], budget_rows);
    else
      common := common || lexemes[i];
      common_idf := common_idf || idfs[i];
    end if;
  end loop;
  if budget = 0 then
    return;
  end if;

  return query
    with rare_hits as materialized (
           select p.interaction_id as id, p.lexeme, q.idf,
                  q.idf * p.tf * (k1 + 1) / (p.tf + k1 * (1 - b + b * p.len / avg_len)) as part
             from unnest(rare, rare_idf, rare_cap) as q (lexeme, idf, cap)
             cross join lateral (
               -- each through its impact-ordered index; the other branch is cut off before it runs
               (select x.interaction_id, x.lexeme, x.tf, x.len from interaction_postings x
                 where by_agent and x.agent_id = scope and x.lexeme = q.lexeme and (client_filter is null or x.client_id = client_filter)
                 order by x.tf / greatest(x.len, 1) desc
                 limit q.cap)
               union all
               (select x.interaction_id, x.lexeme, x.tf, x.len from interaction_postings x
                 where not by_agent and x.client_id = scope and x.lexeme = q.lexeme
                 order by x.tf / greatest(x.len, 1) desc
                 limit q.cap)) p),
         phase1 as materialized (
           select f.id, d.conversation_id
             from (select h.id from rare_hits h group by h.id order by sum(h.part) desc limit candidate_rows) f
             left join interaction_search_docs d on d.interaction_id = f.id),
         matches as materialized (
           select h.id, h.lexeme, h.idf, h.part, f.conversation_id from rare_hits h join phase1 f on f.id = h.id
           union all
           select p.interaction_id, p.lexeme, cq.idf,
                  cq.idf * p.tf * (k1 + 1) / (p.tf + k1 * (1 - b + b * p.len / avg_len)), f.conversation_id
             from phase1 f join interaction_postings p on p.interaction_id = f.id and p.lexeme = any(common)
             join unnest(common, common_idf) as cq (lexeme, idf) on cq.lexeme = p.lexeme),
         scored as (
           select m.id, sum(m.part) as score, sum(m.idf) as matched, min(m.conversation_id::text)::uuid as conversation_id
             from matches m group by m.id),
         conversations as (
           select c.conversation_id, sum(c.idf) as matched
             from (select distinct m.conversation_id, m.lexeme, m.idf from matches m where m.conversation_id is not null) c
            group by c.conversation_id)
    select s.id, s.score::float8, (s.matched / total_idf)::float8, (coalesce(c.matched, s.matched) / total_idf)::float8
      from scored s left join conversations c on c.conversation_id = s.conversation_id
     order by 2 desc, s.id
     limit max_rows;
end
$$;

alter function mhq.interaction_lexical_candidates(text, uuid, uuid, int) set plan_cache_mode = force_generic_plan;
