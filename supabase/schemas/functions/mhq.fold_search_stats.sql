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
