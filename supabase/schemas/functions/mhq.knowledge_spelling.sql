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
-- The known words are knowledge_vocabulary's (the words of the titles and tags of the entries every
-- reader reads, counted with the entries), so a search does not split every title again. Security
-- definer, for HQ users, agents (whom the table's policy lets read it) and system jobs: under the caller's
-- row-level security its trigram and prefix indexes could not be used (their operators are not
-- leakproof), and every word would be compared with every known word. The words at least 0.15
-- alike are read from the trigram index with `%`, its floor (pg_trgm.similarity_threshold) set to
-- 0.15 for the probe and given back after it, and the ten most alike of them kept: a nearest-first
-- walk (<->) stops only once it has ten words, so for a word nothing is near it visited most of the
-- index (about 45 ms for "gasket" among 12,700 known words, against 1.5 ms with the floor). The
-- floor is set inside the body, not as a SET clause of the function: a role that is not a superuser
-- may not attach a setting of an extension's library that is not loaded yet (psql applying the
-- migrations, or a restore, would be refused).
create or replace function mhq.knowledge_spelling(p_words text[], min_similarity real default 0.4)
returns table (word text, word_position integer, word_count integer, suggestion text, similarity real)
language plpgsql volatile security definer
set search_path = public, extensions, pg_temp
-- every lookup of a known word through an index, one word at a time: with the table's statistics
-- stale or missing (the embedded database has no autovacuum) the planner would read all of it
set enable_seqscan = off
set enable_hashjoin = off
set enable_mergejoin = off
as $$
#variable_conflict use_column
declare
  callers_floor text := current_setting('pg_trgm.similarity_threshold', true);
begin
  perform set_config('pg_trgm.similarity_threshold', '0.15', true);
  return query
  with typed as (
    select lower(q) as word, n::integer as pos, (ts_lexize('english_stem', lower(q)))[1] as stem
      from unnest(p_words) with ordinality as t(q, n)
     where (select mhq.caller_type()) is null or (select mhq.is_hq()) or (select mhq.is_agent())
  ),
  unknown as (
    -- a known word with the same stem starts with the stem less its last letter ("polici": policy)
    select t.word, t.pos from typed t
     where length(t.word) >= 4
       and not exists (select 1 from knowledge_vocabulary v where v.word = t.word)
       and not exists (
         select 1 from knowledge_vocabulary v
          -- the words starting with it, read from the prefix index by their byte order
          where v.word ~>=~ left(t.stem, greatest(3, length(t.stem) - 1))
            and v.word ~<~ (left(t.stem, greatest(3, length(t.stem) - 1)) || chr(1114111))
            and v.word like left(t.stem, greatest(3, length(t.stem) - 1)) || '%'
            and (ts_lexize('english_stem', v.word))[1] = t.stem
       )
  ),
  merged as (
    -- each way to cut the word with at least three letters on either side
    select distinct on (u.pos) u.word, u.pos, 1 as len, left(u.word, cut.n) || ' ' || substr(u.word, cut.n + 1) as suggestion, 1::real as sim
      from unknown u
     cross join lateral generate_series(3, length(u.word) - 3) cut(n)
     where length(u.word) >= 6
       and exists (select 1 from knowledge_vocabulary l where l.word = left(u.word, cut.n))
       and exists (select 1 from knowledge_vocabulary r where r.word = substr(u.word, cut.n + 1))
     order by u.pos, abs(2 * cut.n - length(u.word)), left(u.word, cut.n)
  ),
  near as (
    -- the ten words most alike by trigrams (at least 0.15), of which the fewest edits away wins
    select distinct on (u.pos) u.word, u.pos, 1 as len, c.w as suggestion, c.sim
      from unknown u
     cross join lateral (
       select t.w, t.sim,
              case when abs(length(t.w) - length(u.word)) <= 2 then mhq.edit_distance(u.word, t.w) end as edits
         from (select v.word as w, similarity(u.word, v.word) as sim from knowledge_vocabulary v
                where v.word % u.word
                order by sim desc, v.word limit 10) t
     ) c
     where not exists (select 1 from merged m where m.pos = u.pos)
       and (c.edits <= case when length(u.word) <= 5 then 1 else 2 end or c.sim >= min_similarity)
     order by u.pos, c.edits nulls last, c.sim desc, c.w
  ),
  split as (
    select a.word || ' ' || b.word as word, a.pos, 2 as len, v.word as suggestion, 1::real as sim
      from typed a
      join typed b on b.pos = a.pos + 1
      join knowledge_vocabulary v on v.word = a.word || b.word
     where not (exists (select 1 from knowledge_vocabulary x where x.word = a.word) and exists (select 1 from knowledge_vocabulary x where x.word = b.word))
  )
  select word, pos, len, suggestion, sim from merged
  union all
  select word, pos, len, suggestion, sim from near
  union all
  select word, pos, len, suggestion, sim from split
  order by 2, 3 desc;
  -- pg_trgm's default when the caller had none
  perform set_config('pg_trgm.similarity_threshold', coalesce(callers_floor, '0.3'), true);
end
$$;

comment on function mhq.knowledge_spelling(text[], real) is
  'The searched words no published title or tag holds, with what they likely meant: two known words typed as one, the known word fewest edits away (a swap counts as one) or alike by trigrams, or one known word typed as two.';
revoke all on function mhq.knowledge_spelling(text[], real) from public;
grant execute on function mhq.knowledge_spelling(text[], real) to mhq_app;
