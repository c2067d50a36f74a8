-- Written by `npm run db:diff -- interaction_mentions_people` from supabase/schemas/: each function and view
-- below is its schema file as it stands, in full. To change one, change its schema file and generate a new
-- migration; never edit this one.
-- New: mhq.agent_still_names, mhq.reconsider_interaction_mentions.
-- Changed: mhq.forget_interaction_people, mhq.names_in_text, mhq.publish_interaction_batch,
--   mhq.record_interaction_people, mhq.record_memory_people.

-- By hand, around what was generated: the names an agent's turns mention inside a sentence join its
-- people (agent_people, source 'mention'), as its speakers and the names its memories mention
-- already do, so the smart trigger hears a question about someone or something its conversations
-- named ("How is Max doing?" after "we adopted a puppy, Max"). A rewrite of a turn's text (an
-- erasure's redaction) reconsiders them row by row; a name only mentioned so far that a speaker or
-- a memory then names becomes a person; the turns already stored add theirs here.

drop function if exists mhq.names_in_text(text);

-- supabase/schemas/functions/mhq.agent_still_names.sql
-- Whether the agent's memory still names `p_name`: a turn it keeps has them as its speaker or
-- mentions the name (as written, capitalised, a whole word), or one of its own memories mentions it
-- (in any case). The triggers that keep agent_people remove a person only when nothing names them,
-- wherever the name was first seen.
create or replace function mhq.agent_still_names(p_agent_id uuid, p_name text) returns boolean
language sql stable
set search_path = public, pg_temp
as $$
  select exists (select 1 from interactions i
                  where i.agent_id = p_agent_id and lower(mhq.person_name(i.speaker)) = lower(p_name))
      or exists (select 1 from interactions i
                  where i.agent_id = p_agent_id
                    and i.content ~ ('(?<![[:alnum:]])' || regexp_replace(p_name, '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g') || '(?![[:alnum:]])'))
      or exists (select 1 from memories m
                  where m.agent_id = p_agent_id and m.scope = 'agent'
                    and (m.title || E'\n' || m.content) ~* ('(?<![[:alnum:]])' || regexp_replace(p_name, '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g') || '(?![[:alnum:]])'))
$$;

revoke all on function mhq.agent_still_names(uuid, text) from public;

-- supabase/schemas/functions/mhq.forget_interaction_people.sql
-- Deleted turns (opt-out erasure, an agent's removal), once per statement: a speaker, or a name the
-- turns mentioned, that nothing the agent keeps names any more (a turn's speaker or text, its own
-- memories: mhq.agent_still_names) leaves its people, so an erased contact's name stops being a
-- trigger word. Turns of an agent being removed are skipped (its people go with it). Rows are
-- locked in id order.
create or replace function mhq.forget_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  delete from agent_people
   where id in (
     select p.id
       from agent_people p
       join (select distinct x.agent_id, lower(x.name) as n
               from (select g.agent_id, mhq.person_name(g.speaker) as name from gone g
                     union all
                     select g.agent_id, n.name from gone g cross join lateral mhq.names_in_text(g.content, false) n (name)) x
               join agents a on a.id = x.agent_id
              where x.name is not null) d
         on p.agent_id = d.agent_id and lower(p.name) = d.n
      where not mhq.agent_still_names(d.agent_id, p.name)
      order by p.id
        for update of p);
  return null;
end
$$;

revoke all on function mhq.forget_interaction_people() from public;

-- supabase/schemas/functions/mhq.names_in_text.sql
-- The names a text mentions, for the smart trigger's vocabulary: capitalised words (and hyphenated
-- ones, "Mary-Jane") that are not English stopwords, weekdays, months or a few capitalised words of
-- everyday text. Inside a sentence every capitalised word counts; the first word of a sentence is
-- capitalised anyway, so it counts only when it is shown to be a name: a possessive ("Dana's"),
-- followed by another capitalised word ("Dana Whitfield"), or followed by a verb people are the
-- subject of ("Dana is moving", "Marco said"). At most 20 names per text, in order of appearance.
-- `p_sentence_starts` false: inside a sentence only. Chat is written loosely ("Hey Joanna", "Wow
-- Nate", "Nature is healing"), so a conversation turn's sentence starts are not read for names.
create or replace function mhq.names_in_text(p_text text, p_sentence_starts boolean default true) returns setof text
language plpgsql immutable parallel safe
set search_path = pg_catalog, pg_temp
as $$
declare
  v_sentence text;
  v_words text[];
  v_word text;
  v_next text;
  v_possessive boolean;
  v_seen text[] := '{}';
  i integer;
begin
  foreach v_sentence in array regexp_split_to_array(coalesce(p_text, ''), '[.!?;:\n]+(\s+|$)|\s+[-–—]+\s+|^[-*•#>]+\s*') loop
    v_words := regexp_split_to_array(btrim(v_sentence), '\s+');
    for i in 1 .. coalesce(array_length(v_words, 1), 0) loop
      v_word := regexp_replace(v_words[i], '^[("''“‘\[*_]+|[)"”\],*_]+$', '', 'g');
      v_possessive := v_word ~ '(''s|’s|s''|s’)$';
      v_word := regexp_replace(v_word, '(''s|’s|''|’)$', '');
      continue when char_length(v_word) < 3 or v_word !~ '^[[:upper:]][[:lower:]]+(-[[:upper:]][[:lower:]]+)?$';
      continue when lower(v_word) = any (v_seen);
      continue when to_tsvector('english'::regconfig, v_word) = ''::tsvector;
      continue when lower(v_word) ~ '^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|june|july|august|september|october|november|december|today|tomorrow|yesterday|tonight|also|please|thanks|thank|note|hello|okay|sure|great|yes|team|client|clients|customer|customers|agent|agents|user|users|everyone|everybody|someone|somebody|nobody|anyone|mrs|miss|prof|english|spanish|french|german|christmas|easter|thanksgiving|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)s?$';
      continue when i = 1 and not p_sentence_starts;
      if i = 1 then
        v_next := regexp_replace(coalesce(v_words[i + 1], ''), '[^[:alpha:]''’-]', '', 'g');
        continue when not (
          v_possessive
          or v_next ~ '^[[:upper:]][[:lower:]]+'
          or lower(v_next) ~ '^(is|was|has|had|said|says|told|tells|asked|asks|wants|wanted|will|would|can|could|should|and|prefers|preferred|likes|liked|loves|loved|lives|lived|works|worked|moved|moves|plans|planned|mentioned|thinks|thought|called|calls|emailed|texted|needs|needed|got|went|goes|came|comes|bought|started|joined|left|lost|won|plays|played|coaches|runs|ran|owns|met|visited|agreed|promised|confirmed|decided|prefers|isn''t|wasn''t|doesn''t|didn''t|won''t|can''t|hasn''t|hadn''t|just|still|never|always|recently|finally)$'
        );
      end if;
      v_seen := v_seen || lower(v_word);
      return next v_word;
      exit when array_length(v_seen, 1) >= 20;
    end loop;
    exit when array_length(v_seen, 1) >= 20;
  end loop;
end
$$;

comment on function mhq.names_in_text(text, boolean) is 'the names a text mentions (capitalised words that are not everyday words), for the trigger vocabulary';

-- supabase/schemas/functions/mhq.publish_interaction_batch.sql
-- Makes the caller's batch visible, all of it at once: one short statement in the caller's last
-- step, after every turn was written and indexed. Refused (and nothing shown) when a contact its
-- turns name (`p_contacts`, as sent: an erasure may have deleted those turns meanwhile) opted out
-- (MHQ09: the contacts are read with the same row lock every write naming a contact takes,
-- mhq.refuse_opted_out_contact) or when its turns are not all there (MHQ10). The speakers of its turns and the names they mention
-- join the agent's people, as a single write's do (mhq.record_interaction_people). Answers the number of turns published.
create or replace function mhq.publish_interaction_batch(p_batch uuid, p_contacts uuid[])
returns integer
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  b record;
  stored integer;
begin
  select * into b from interaction_batches x
   where x.id = p_batch and x.agent_id = mhq.agent_id() and x.state = 'staging'
     for update;
  if not found then
    raise exception 'This batch is no longer being stored' using errcode = 'MHQ10';
  end if;
  -- the contacts it names, read with the row lock a write naming a contact takes: an erasure in
  -- progress is waited for and its opt-out seen
  if exists (select 1 from (select c.opt_out from contacts c
                             where c.id = any(p_contacts)
                                or c.id in (select i.contact_id from interactions i where i.batch_id = p_batch and i.contact_id is not null)
                             order by c.id
                               for key share) c
              where c.opt_out) then
    raise exception 'This contact opted out; nothing more is stored about them' using errcode = 'MHQ09';
  end if;
  select count(*) into stored from interactions i where i.batch_id = p_batch;
  if stored <> b.turns then
    raise exception 'This batch lost turns while it was being stored' using errcode = 'MHQ10';
  end if;
  update interaction_batches set state = 'published', published_at = now() where id = p_batch;
  insert into agent_people (agent_id, name, source)
  select d.agent_id, d.name, d.source
    from (select distinct on (lower(x.name)) x.agent_id, x.name, x.source
            from (select i.agent_id, mhq.person_name(i.speaker) as name, 'speaker' as source, i.occurred_at, i.seq
                    from interactions i where i.batch_id = p_batch
                  union all
                  select i.agent_id, n.name, 'mention', i.occurred_at, i.seq
                    from interactions i cross join lateral mhq.names_in_text(i.content, false) n (name)
                   where i.batch_id = p_batch) x
           where x.name is not null
           order by lower(x.name), x.source = 'mention', x.occurred_at, x.seq) d
   where not exists (select 1 from agent_people p
                      where p.agent_id = d.agent_id and lower(p.name) = lower(d.name) and (p.source <> 'mention' or d.source = 'mention'))
   order by lower(d.name)
  on conflict (agent_id, lower(name)) do update set source = excluded.source
   where agent_people.source = 'mention' and excluded.source <> 'mention';
  return stored;
end
$$;

revoke all on function mhq.publish_interaction_batch(uuid, uuid[]) from public;
grant execute on function mhq.publish_interaction_batch(uuid, uuid[]) to mhq_app;

-- supabase/schemas/functions/mhq.reconsider_interaction_mentions.sql
-- A turn's text rewritten (an opt-out erasure's redaction), once per row: a name it no longer
-- mentions leaves the agent's people when nothing the agent keeps names them any more
-- (mhq.agent_still_names), and a name it newly mentions joins them once the turn is visible
-- (written alone, or its batch published). Rows are locked in id order.
create or replace function mhq.reconsider_interaction_mentions() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  delete from agent_people
   where id in (
     select p.id
       from agent_people p
      where p.agent_id = new.agent_id
        and lower(p.name) in (select lower(o.name) from mhq.names_in_text(old.content, false) o (name)
                              except
                              select lower(n.name) from mhq.names_in_text(new.content, false) n (name))
        and not mhq.agent_still_names(new.agent_id, p.name)
      order by p.id
        for update of p);
  if new.batch_id is null or exists (select 1 from interaction_batches b where b.id = new.batch_id and b.state = 'published') then
    insert into agent_people (agent_id, name, source)
    select new.agent_id, d.name, 'mention'
      from (select distinct on (lower(n.name)) n.name from mhq.names_in_text(new.content, false) n (name) order by lower(n.name), n.name) d
     where not exists (select 1 from agent_people p where p.agent_id = new.agent_id and lower(p.name) = lower(d.name))
     order by lower(d.name)
    on conflict do nothing;
  end if;
  return null;
end
$$;

revoke all on function mhq.reconsider_interaction_mentions() from public;

-- supabase/schemas/functions/mhq.record_interaction_people.sql
-- New turns, once per statement: each agent's speakers, and the names its turns mention inside a
-- sentence (mhq.names_in_text), not yet among its people are added (see agent_people), in one
-- insert in key order so that concurrent statements never wait on each other crosswise (a name
-- that is both is recorded as a speaker, and a name only mentioned so far becomes a speaker). A batch's turns being stored in steps count when it is
-- published (mhq.publish_interaction_batch).
create or replace function mhq.record_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if not exists (select 1 from added a where a.batch_id is null) then
    return null;
  end if;
  insert into agent_people (agent_id, name, source)
  select d.agent_id, d.name, d.source
    from (select distinct on (x.agent_id, lower(x.name)) x.agent_id, x.name, x.source
            from (select a.agent_id, mhq.person_name(a.speaker) as name, 'speaker' as source, a.occurred_at, a.seq
                    from added a where a.batch_id is null
                  union all
                  select a.agent_id, n.name, 'mention', a.occurred_at, a.seq
                    from added a cross join lateral mhq.names_in_text(a.content, false) n (name)
                   where a.batch_id is null) x
           where x.name is not null
           order by x.agent_id, lower(x.name), x.source = 'mention', x.occurred_at, x.seq) d
   where not exists (select 1 from agent_people p
                      where p.agent_id = d.agent_id and lower(p.name) = lower(d.name) and (p.source <> 'mention' or d.source = 'mention'))
   order by d.agent_id, lower(d.name)
  on conflict (agent_id, lower(name)) do update set source = excluded.source
   where agent_people.source = 'mention' and excluded.source <> 'mention';
  return null;
end
$$;

revoke all on function mhq.record_interaction_people() from public;

-- supabase/schemas/functions/mhq.record_memory_people.sql
-- New or rewritten memories of an agent's own (scope 'agent'), once per statement: the names their
-- title and content mention (mhq.names_in_text) join the agent's people (a name only its turns had
-- mentioned becomes one its memories mention, heard wherever it is written). On a rewrite (a redaction,
-- an edit), a name the old text mentioned that nothing of the agent's names any more (its memories,
-- its turns: mhq.agent_still_names) leaves them. Rows are written in key order and deleted in id order.
create or replace function mhq.record_memory_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_op = 'UPDATE' then
    delete from agent_people
     where id in (
       select p.id
         from agent_people p
         join (select distinct g.agent_id, lower(n.name) as n
                 from gone g
                 join fresh f on f.id = g.id and (f.title, f.content) is distinct from (g.title, g.content)
                cross join lateral mhq.names_in_text(g.title || E'\n' || g.content) n (name)
                where g.scope = 'agent') d
           on p.agent_id = d.agent_id and lower(p.name) = d.n
        -- kept while the agent's memories (in any case) or its turns still name them
        where not mhq.agent_still_names(d.agent_id, p.name)
        order by p.id
          for update of p);
    insert into agent_people (agent_id, name, source)
    select d.agent_id, d.name, 'memory'
      from (select distinct on (f.agent_id, lower(n.name)) f.agent_id, n.name
              from fresh f
              join gone g on g.id = f.id and (g.title, g.content) is distinct from (f.title, f.content)
             cross join lateral mhq.names_in_text(f.title || E'\n' || f.content) n (name)
             where f.scope = 'agent'
             order by f.agent_id, lower(n.name), n.name) d
     where not exists (select 1 from agent_people p
                        where p.agent_id = d.agent_id and lower(p.name) = lower(d.name) and p.source <> 'mention')
     order by d.agent_id, lower(d.name)
    on conflict (agent_id, lower(name)) do update set source = excluded.source where agent_people.source = 'mention';
  else
    insert into agent_people (agent_id, name, source)
    select d.agent_id, d.name, 'memory'
      from (select distinct on (f.agent_id, lower(n.name)) f.agent_id, n.name
              from fresh f
             cross join lateral mhq.names_in_text(f.title || E'\n' || f.content) n (name)
             where f.scope = 'agent'
             order by f.agent_id, lower(n.name), n.name) d
     where not exists (select 1 from agent_people p
                        where p.agent_id = d.agent_id and lower(p.name) = lower(d.name) and p.source <> 'mention')
     order by d.agent_id, lower(d.name)
    on conflict (agent_id, lower(name)) do update set source = excluded.source where agent_people.source = 'mention';
  end if;
  return null;
end
$$;

revoke all on function mhq.record_memory_people() from public;

-- (by hand) where a person was first seen: a name a conversation turn mentions too
alter table agent_people drop constraint agent_people_source_check;
alter table agent_people add constraint agent_people_source_check check (source in ('speaker', 'memory', 'mention'));

-- (by hand) a name only mentioned so far that a speaker or a memory then names is heard as a person
-- from then on: the update advances the vocabulary's generation, as a removal does
create trigger agent_people_vocabulary_update after update on agent_people
  for each statement execute function mhq.advance_vocabulary_generation();

-- (by hand) a turn's text rewritten: the names it mentions are reconsidered (a trigger of a column
-- list fires only when the text is written, never for the vectors or the statistics' updates)
create trigger interactions_mentions_update after update of content on interactions
  for each row when (old.content is distinct from new.content) execute function mhq.reconsider_interaction_mentions();

-- (by hand) the names the turns already stored mention (turns of a batch not yet published wait for
-- it), in key order
insert into agent_people (agent_id, name, source)
select d.agent_id, d.name, 'mention'
  from (select distinct on (i.agent_id, lower(n.name)) i.agent_id, n.name
          from interactions i
         cross join lateral mhq.names_in_text(i.content, false) n (name)
         where i.batch_id is null
            or exists (select 1 from interaction_batches b where b.id = i.batch_id and b.state = 'published')
         order by i.agent_id, lower(n.name), i.occurred_at, i.seq) d
 where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
 order by d.agent_id, lower(d.name)
on conflict do nothing;
