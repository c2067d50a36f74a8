-- The knowledge base.
create or replace function mhq.knowledge_lexical_candidates(
  query_text text, category_filter text, tag_filter text[], include_archived boolean, max_rows int
)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
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

revoke all on function mhq.knowledge_lexical_candidates(text, text, text[], boolean, integer) from public;
grant execute on function mhq.knowledge_lexical_candidates(text, text, text[], boolean, integer) to mhq_app;
