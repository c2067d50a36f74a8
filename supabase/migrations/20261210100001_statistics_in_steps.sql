-- Background work in short steps (lib/db/lanes.ts, lib/db/steps.ts): the statistics jobs that ran as
-- one statement over everything that had piled up take a bounded piece per call instead. The
-- memory and knowledge statistics' log is folded a limited number of rows at a time, and a scope of
-- conversations has its statistics rebuilt a range of words at a time.
drop function mhq.fold_search_stats();

-- Folds up to `p_limit` rows of the log into the statistics (a job: lib/retrieval/term-stats.ts,
-- which calls it until it folds fewer: each call a short step, however long the log grew after an
-- import). One fold at a time: whoever does not get the lock skips (the next fold takes what is
-- left). Rows of transactions still open are not visible here and stay for the next fold.
create or replace function mhq.fold_search_stats(p_limit integer)
returns integer
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  folded integer;
  k_corpus text[];
  k_id uuid[];
  k_lexeme text[];
begin
  if not pg_try_advisory_xact_lock(hashtext('mhq.search_stats')) then
    return 0;
  end if;
  with gone as (
    delete from search_stats_log l
     where l.ctid = any (array(select x.ctid from search_stats_log x limit p_limit))
    returning l.corpus, l.corpus_id, l.lexeme, l.df_delta, l.len_delta
  ),
  folded_in as (
    insert into search_term_stats as s (corpus, corpus_id, lexeme, df, total_len)
    select g.corpus, g.corpus_id, g.lexeme, sum(g.df_delta), sum(g.len_delta)
      from gone g
     group by g.corpus, g.corpus_id, g.lexeme
     order by g.corpus, g.corpus_id, g.lexeme
    on conflict (corpus, corpus_id, lexeme) do update set df = s.df + excluded.df, total_len = s.total_len + excluded.total_len
    returning s.corpus, s.corpus_id, s.lexeme, s.df
  )
  select (select count(*) from gone),
         array_agg(f.corpus) filter (where f.df <= 0 and f.lexeme <> ''),
         array_agg(f.corpus_id) filter (where f.df <= 0 and f.lexeme <> ''),
         array_agg(f.lexeme) filter (where f.df <= 0 and f.lexeme <> '')
    into folded, k_corpus, k_id, k_lexeme
    from folded_in f;
  -- words no row holds any more
  if k_lexeme is not null then
    delete from search_term_stats s
     using unnest(k_corpus, k_id, k_lexeme) as k (corpus, corpus_id, lexeme)
     where s.corpus = k.corpus and s.corpus_id = k.corpus_id and s.lexeme = k.lexeme;
  end if;
  return folded;
end
$$;

revoke all on function mhq.fold_search_stats(integer) from public;
grant execute on function mhq.fold_search_stats(integer) to mhq_app;

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
