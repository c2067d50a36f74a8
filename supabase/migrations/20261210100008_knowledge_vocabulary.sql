-- The knowledge search's spelling check ("did you mean") compared the searched words with the words of
-- every published title and tag, split again on each search: at 10,000 entries the check took about
-- 165 ms of a search's 190, 115 of them splitting the titles. knowledge_vocabulary keeps those words
-- counted with the entries instead (a word
-- and how many entries every reader reads hold it in their title or tags), written by triggers in the
-- same transaction as the entries, and indexed for the check's lookups: equality, prefix, and the
-- nearest words by trigrams.
create table knowledge_vocabulary (
  word text primary key check (char_length(word) >= 3),
  entries integer not null
);
-- serves: the known words starting with a stem ("polici" → policy)
create index knowledge_vocabulary_prefix_idx on knowledge_vocabulary (word text_pattern_ops);
-- serves: the known words most alike by trigrams, nearest first (<->); a wider signature than the
-- default keeps the walk short (measured on 12,700 words: 2.7 ms a word against 4.3)
create index knowledge_vocabulary_trgm_idx on knowledge_vocabulary using gist (word gist_trgm_ops(siglen = 256));

-- The words of the entries every reader reads, so every HQ user and agent may read them; only the
-- triggers (as the owner) write them.
alter table knowledge_vocabulary enable row level security;
grant select on knowledge_vocabulary to mhq_app;
create policy knowledge_vocabulary_select on knowledge_vocabulary for select to mhq_app
  using ((select mhq.is_hq()) or (select mhq.is_agent()));

-- The functions below as in supabase/schemas/functions/ (written by `npm run db:diff`).
-- New: mhq.count_knowledge_words, mhq.knowledge_entry_read, mhq.knowledge_title_words,
--   mhq.knowledge_vocabulary_trigger.
-- Changed: mhq.knowledge_spelling.

-- supabase/schemas/functions/mhq.count_knowledge_words.sql
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

-- supabase/schemas/functions/mhq.knowledge_entry_read.sql
-- Whether every reader of the knowledge base reads an entry: published, and not in an import still
-- being written or given up (its row in knowledge_imports hides its entries from every reader).
create or replace function mhq.knowledge_entry_read(p_status text, p_import uuid)
returns boolean
language sql stable
set search_path = public, pg_temp
as $$
  select p_status = 'published' and (p_import is null or not exists (select 1 from knowledge_imports i where i.id = p_import))
$$;

-- supabase/schemas/functions/mhq.knowledge_spelling.sql
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
-- leakproof), and every word would be compared with every known word. The ten words most alike are
-- read nearest first from the trigram index (<-> is 1 − similarity).
create or replace function mhq.knowledge_spelling(p_words text[], min_similarity real default 0.4)
returns table (word text, word_position integer, word_count integer, suggestion text, similarity real)
language sql stable security definer
set search_path = public, extensions, pg_temp
-- every lookup of a known word through an index, one word at a time: with the table's statistics
-- stale or missing (the embedded database has no autovacuum) the planner would read all of it
set enable_seqscan = off
set enable_hashjoin = off
set enable_mergejoin = off
as $$
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
    -- the ten words most alike by trigrams (as before), of which the fewest edits away wins
    select distinct on (u.pos) u.word, u.pos, 1 as len, c.w as suggestion, c.sim
      from unknown u
     cross join lateral (
       select t.w, t.sim,
              case when abs(length(t.w) - length(u.word)) <= 2 then mhq.edit_distance(u.word, t.w) end as edits
         from (select v.word as w, similarity(u.word, v.word) as sim from knowledge_vocabulary v
                order by v.word <-> u.word, v.word limit 10) t
        where t.sim >= 0.15
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
  order by 2, 3 desc
$$;

comment on function mhq.knowledge_spelling(text[], real) is
  'The searched words no published title or tag holds, with what they likely meant: two known words typed as one, the known word fewest edits away (a swap counts as one) or alike by trigrams, or one known word typed as two.';
revoke all on function mhq.knowledge_spelling(text[], real) from public;
grant execute on function mhq.knowledge_spelling(text[], real) to mhq_app;

-- supabase/schemas/functions/mhq.knowledge_title_words.sql
-- The words of a knowledge entry's title and tags that the spelling check knows: lower case, split
-- at anything but letters and digits, at least three characters long, each once.
create or replace function mhq.knowledge_title_words(p_title text, p_tags text[])
returns setof text
language sql immutable
as $$
  select distinct w
    from regexp_split_to_table(lower(p_title || ' ' || coalesce(array_to_string(p_tags, ' '), '')), '[^[:alnum:]]+') w
   where length(w) >= 3
$$;

-- supabase/schemas/functions/mhq.knowledge_vocabulary_trigger.sql
-- Keeps knowledge_vocabulary counted with the entries every reader reads (mhq.knowledge_entry_read):
-- an entry written, edited (title, tags, status) or deleted, and an import published, whose entries
-- are read from then on.
create or replace function mhq.knowledge_vocabulary_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_table_name = 'knowledge_imports' then
    perform mhq.count_knowledge_words((
      select jsonb_agg(jsonb_build_object('title', k.title, 'tags', k.tags, 'sign', 1))
        from gone g join knowledge_entries k on k.import_id = g.id
       where mhq.knowledge_entry_read(k.status, k.import_id)));
  elsif tg_op = 'INSERT' then
    perform mhq.count_knowledge_words((
      select jsonb_agg(jsonb_build_object('title', f.title, 'tags', f.tags, 'sign', 1))
        from fresh f where mhq.knowledge_entry_read(f.status, f.import_id)));
  elsif tg_op = 'DELETE' then
    perform mhq.count_knowledge_words((
      select jsonb_agg(jsonb_build_object('title', g.title, 'tags', g.tags, 'sign', -1))
        from gone g where mhq.knowledge_entry_read(g.status, g.import_id)));
  else
    perform mhq.count_knowledge_words((
      select jsonb_agg(c.r) from (
        select jsonb_build_object('title', g.title, 'tags', g.tags, 'sign', -1) as r, g.status, g.import_id
          from gone g join fresh f on f.id = g.id
         where (f.title, f.tags, f.status, f.import_id) is distinct from (g.title, g.tags, g.status, g.import_id)
        union all
        select jsonb_build_object('title', f.title, 'tags', f.tags, 'sign', 1), f.status, f.import_id
          from fresh f join gone g on g.id = f.id
         where (f.title, f.tags, f.status, f.import_id) is distinct from (g.title, g.tags, g.status, g.import_id)
      ) c
      where mhq.knowledge_entry_read(c.status, c.import_id)));
  end if;
  return null;
end
$$;

create trigger knowledge_entries_vocabulary_insert after insert on knowledge_entries
  referencing new table as fresh
  for each statement execute function mhq.knowledge_vocabulary_trigger();
create trigger knowledge_entries_vocabulary_update after update on knowledge_entries
  referencing old table as gone new table as fresh
  for each statement execute function mhq.knowledge_vocabulary_trigger();
create trigger knowledge_entries_vocabulary_delete after delete on knowledge_entries
  referencing old table as gone
  for each statement execute function mhq.knowledge_vocabulary_trigger();
-- an import published: its row goes, and its entries are read from then on
create trigger knowledge_imports_vocabulary_delete after delete on knowledge_imports
  referencing old table as gone
  for each statement execute function mhq.knowledge_vocabulary_trigger();

-- the words of the entries already written
select mhq.count_knowledge_words((
  select jsonb_agg(jsonb_build_object('title', k.title, 'tags', k.tags, 'sign', 1))
    from knowledge_entries k where mhq.knowledge_entry_read(k.status, k.import_id)));
