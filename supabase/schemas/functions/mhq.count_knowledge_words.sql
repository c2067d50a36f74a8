-- Counts entries in or out of knowledge_vocabulary: each row of `p_rows` is an entry's
-- {title, tags, sign}, sign 1 for an entry every reader now reads, -1 for one no longer read as it
-- was. A word's count is how many read entries hold it; a word no entry holds any more goes. The
-- words are written in word order, so concurrent writers lock them in the same order.
create or replace function mhq.count_knowledge_words(p_rows jsonb)
returns void
language plpgsql volatile
set search_path = public, pg_temp
as $$
declare
  emptied text[];
begin
  with deltas as (
    select t.word, sum((r ->> 'sign')::integer)::integer as delta
      from jsonb_array_elements(coalesce(p_rows, '[]'::jsonb)) r
     cross join lateral mhq.knowledge_title_words(r ->> 'title', array(select jsonb_array_elements_text(r -> 'tags'))) t(word)
     group by t.word
    having sum((r ->> 'sign')::integer) <> 0
  ),
  counted as (
    insert into knowledge_vocabulary as v (word, entries)
    select d.word, d.delta from deltas d order by d.word
    on conflict (word) do update set entries = v.entries + excluded.entries
    returning v.word, v.entries
  )
  select coalesce(array_agg(c.word), '{}') into emptied from counted c where c.entries <= 0;
  delete from knowledge_vocabulary v where v.word = any (emptied) and v.entries <= 0;
end
$$;

revoke all on function mhq.count_knowledge_words(jsonb) from public;
