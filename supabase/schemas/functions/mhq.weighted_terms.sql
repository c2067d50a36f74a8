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
