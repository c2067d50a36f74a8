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
