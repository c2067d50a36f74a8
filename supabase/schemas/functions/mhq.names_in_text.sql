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
