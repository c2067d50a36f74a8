-- One step of rebuilding a scope's statistics (a job: lib/retrieval/term-stats.ts): the document
-- frequencies of the next `p_lexemes` lexemes after `p_after` (in the postings' order), and, in the
-- step that reaches the last lexeme, those of every lexeme past `p_after` and the scope's document
-- count and length. A scope of tens of thousands of turns is rebuilt in steps of a few milliseconds
-- each instead of one statement of a second, so requests are served between them; until the last
-- step, part of its words carry the old frequencies (the search counts new words itself anyway).
-- Answers the lexeme to continue after, or null once the scope is done — or when another rebuild of
-- the scope holds its lock (that one finishes it).
create or replace function mhq.refresh_interaction_stats_step(p_kind text, p_scope uuid, p_after text, p_lexemes int)
returns text
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  col text := case p_kind when 'agent' then 'agent_id' when 'client' then 'client_id' end;
  upto text;
  found_lexemes integer;
begin
  if col is null or p_scope is null
     or not pg_try_advisory_xact_lock(hashtext('mhq.interaction_stats'), hashtext(p_kind || ':' || p_scope::text)) then
    return null;
  end if;
  execute format(
    'select count(*), max(x.lexeme) from (select distinct p.lexeme from interaction_postings p
      where p.%I = $1 and p.lexeme > $2 order by p.lexeme limit $3) x', col)
    into found_lexemes, upto using p_scope, p_after, p_lexemes;
  if found_lexemes = p_lexemes then
    delete from interaction_term_stats s
     where s.scope_kind = p_kind and s.scope_id = p_scope and s.lexeme > p_after and s.lexeme <= upto;
    execute format(
      'insert into interaction_term_stats (scope_kind, scope_id, lexeme, df)
       select $1, $2, p.lexeme, count(*) from interaction_postings p
        where p.%I = $2 and p.lexeme > $3 and p.lexeme <= $4 group by p.lexeme', col)
      using p_kind, p_scope, p_after, upto;
    return upto;
  end if;
  delete from interaction_term_stats s where s.scope_kind = p_kind and s.scope_id = p_scope and s.lexeme > p_after;
  execute format(
    'insert into interaction_term_stats (scope_kind, scope_id, lexeme, df)
     select $1, $2, p.lexeme, count(*) from interaction_postings p where p.%I = $2 and p.lexeme > $3 group by p.lexeme', col)
    using p_kind, p_scope, p_after;
  execute format(
    'insert into interaction_corpus_stats as s (scope_kind, scope_id, n, total_len, refreshed_at)
     select $1, $2, count(*), coalesce(sum(d.len), 0), now() from interaction_search_docs d where d.%I = $2
     on conflict (scope_kind, scope_id) do update set n = excluded.n, total_len = excluded.total_len, refreshed_at = now()', col)
    using p_kind, p_scope;
  return null;
end
$$;

revoke all on function mhq.refresh_interaction_stats_step(text, uuid, text, integer) from public;
