-- Memories: an agent's own, or the team's.
create or replace function mhq.memory_lexical_candidates(query_text text, memory_scope text, owner_id uuid, max_rows int)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
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

revoke all on function mhq.memory_lexical_candidates(text, text, uuid, integer) from public;
grant execute on function mhq.memory_lexical_candidates(text, text, uuid, integer) to mhq_app;
