-- The knowledge base's "did you mean": for each word of a search that no published entry's title or
-- tags contain, the closest word that one does, when it is alike enough (trigram similarity at least
-- min_similarity, pg_trgm). Words shorter than four letters are left as typed. Security invoker: the
-- vocabulary is what the caller may read.
create or replace function mhq.knowledge_spelling(p_words text[], min_similarity real default 0.4)
returns table (word text, suggestion text, similarity real)
language sql stable security invoker
set search_path = public, extensions, pg_temp
as $$
  with vocab as (
    select distinct w
      from knowledge_entries k
     cross join lateral regexp_split_to_table(lower(k.title || ' ' || array_to_string(k.tags, ' ')), '[^[:alnum:]]+') w
     where k.status = 'published' and length(w) >= 3
  ),
  asked as (
    select distinct lower(q) as word from unnest(p_words) q where length(q) >= 4
  )
  select a.word, best.w, best.sim
    from asked a
   cross join lateral (
     select v.w, similarity(a.word, v.w) as sim
       from vocab v
      order by similarity(a.word, v.w) desc, v.w
      limit 1
   ) best
   where not exists (select 1 from vocab v where v.w = a.word)
     and best.sim >= min_similarity
$$;

comment on function mhq.knowledge_spelling(text[], real) is
  'For each searched word no published title or tag contains: the most alike word one does (pg_trgm similarity >= min_similarity).';
revoke all on function mhq.knowledge_spelling(text[], real) from public;
grant execute on function mhq.knowledge_spelling(text[], real) to mhq_app;
