-- The query's lexemes with their document frequency and BM25 IDF, from the corpus statistics plus
-- the deltas not yet folded in (see ../README.md, "Lexical ranking").
create or replace function mhq.search_query_terms(p_corpus text, p_corpus_id uuid, query_text text)
returns table (lexeme text, df float8, idf float8, rare boolean, avg_len float8)
language plpgsql stable
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
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
   order by t.df, t.lexeme;
end
$$;

revoke all on function mhq.search_query_terms(text, uuid, text) from public;
