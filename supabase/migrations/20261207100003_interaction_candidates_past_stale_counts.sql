-- Written by `npm run db:diff -- interaction_candidates_past_stale_counts` from supabase/schemas/: each
-- function and view below is its schema file as it stands, in full. To change one, change its schema file
-- and generate a new migration; never edit this one.
-- Changed: mhq.interaction_lexical_candidates.

-- supabase/schemas/functions/mhq.interaction_lexical_candidates.sql
-- Conversations: BM25F candidates with each turn's context (see ../README.md, "Conversations").
create or replace function mhq.interaction_lexical_candidates(query_text text, agent_filter uuid, client_filter uuid, max_rows int)
returns table (id uuid, score float8, coverage float8, conversation_coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
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
  -- that alone holds more is read in impact order, only its strongest `budget_rows` rows. Each is
  -- read to the end of its postings (up to `budget_rows`), not to its df: the statistics trail the
  -- writes by a moment, and a turn written since the last rebuild must be found too
  for i in 1 .. array_length(lexemes, 1) loop
    continue when dfs[i] = 0;
    if budget = 0 or budget + dfs[i] <= budget_rows then
      rare := rare || lexemes[i];
      rare_idf := rare_idf || idfs[i];
      rare_cap := rare_cap || budget_rows;
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

revoke all on function mhq.interaction_lexical_candidates(text, uuid, uuid, integer) from public;
grant execute on function mhq.interaction_lexical_candidates(text, uuid, uuid, integer) to mhq_app;
