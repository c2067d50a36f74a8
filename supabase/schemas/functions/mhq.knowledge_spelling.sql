-- The knowledge base's "did you mean": the searched words no published entry's title or tags hold,
-- each with what they likely meant. Words shorter than four letters are left as typed, and so is a
-- word that only differs from a known one by its ending ("refunds" where titles say "refund": the
-- full-text search matches both). For each other word, in the order tried:
--   * two words typed as one, both known: "refundpolicy" → "refund policy";
--   * of the ten known words most alike by trigrams (pg_trgm), the one fewest edits away (a swap of
--     two neighbouring letters is one edit: "refnud" → "refund"), at most one edit for words up to
--     five letters and two for longer ones; else one alike enough by trigrams (similarity ≥
--     min_similarity); ties go to the more alike, then the alphabetically first;
-- and a word typed as two, when the two together are a known word and not both known alone:
-- "re fund" → "refund". Each row replaces `word_count` words from `word_position` (1-based) with `suggestion`.
-- Security invoker: the vocabulary is what the caller may read.
create or replace function mhq.knowledge_spelling(p_words text[], min_similarity real default 0.4)
returns table (word text, word_position integer, word_count integer, suggestion text, similarity real)
language sql stable security invoker
set search_path = public, extensions, pg_temp
as $$
  with vocab as (
    select distinct w
      from knowledge_entries k
     cross join lateral regexp_split_to_table(lower(k.title || ' ' || array_to_string(k.tags, ' ')), '[^[:alnum:]]+') w
     where k.status = 'published' and length(w) >= 3
  ),
  typed as (
    select lower(q) as word, n::integer as pos, (ts_lexize('english_stem', lower(q)))[1] as stem
      from unnest(p_words) with ordinality as t(q, n)
  ),
  unknown as (
    -- a known word with the same stem starts with the stem less its last letter ("polici": policy)
    select t.word, t.pos from typed t
     where length(t.word) >= 4
       and not exists (select 1 from vocab v where v.w = t.word)
       and not exists (
         select 1 from vocab v
          where v.w like left(t.stem, greatest(3, length(t.stem) - 1)) || '%'
            and (ts_lexize('english_stem', v.w))[1] = t.stem
       )
  ),
  merged as (
    select distinct on (u.pos) u.word, u.pos, 1 as len, l.w || ' ' || r.w as suggestion, 1::real as sim
      from unknown u
      join vocab l on length(u.word) >= 6 and length(l.w) <= length(u.word) - 3 and u.word like l.w || '%'
      join vocab r on r.w = substr(u.word, length(l.w) + 1)
     order by u.pos, abs(length(l.w) - length(r.w)), l.w
  ),
  near as (
    -- the ten words most alike by trigrams (as before), of which the fewest edits away wins
    select distinct on (u.pos) u.word, u.pos, 1 as len, c.w as suggestion, c.sim
      from unknown u
     cross join lateral (
       select t.w, t.sim,
              case when abs(length(t.w) - length(u.word)) <= 2 then mhq.edit_distance(u.word, t.w) end as edits
         from (select v.w, similarity(u.word, v.w) as sim from vocab v order by 2 desc, v.w limit 10) t
        where t.sim >= 0.15
     ) c
     where not exists (select 1 from merged m where m.pos = u.pos)
       and (c.edits <= case when length(u.word) <= 5 then 1 else 2 end or c.sim >= min_similarity)
     order by u.pos, c.edits nulls last, c.sim desc, c.w
  ),
  split as (
    select a.word || ' ' || b.word as word, a.pos, 2 as len, v.w as suggestion, 1::real as sim
      from typed a
      join typed b on b.pos = a.pos + 1
      join vocab v on v.w = a.word || b.word
     where not (exists (select 1 from vocab x where x.w = a.word) and exists (select 1 from vocab x where x.w = b.word))
  )
  select word, pos, len, suggestion, sim from merged
  union all
  select word, pos, len, suggestion, sim from near
  union all
  select word, pos, len, suggestion, sim from split
  order by 2, 3 desc
$$;

comment on function mhq.knowledge_spelling(text[], real) is
  'The searched words no published title or tag holds, with what they likely meant: two known words typed as one, the known word fewest edits away (a swap counts as one) or alike by trigrams, or one known word typed as two.';
revoke all on function mhq.knowledge_spelling(text[], real) from public;
grant execute on function mhq.knowledge_spelling(text[], real) to mhq_app;
