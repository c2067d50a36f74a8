-- The text a turn is searched by: who said it, what was said, then each attachment's caption on a
-- line of its own as "[image: a photo of a red bike]" (lib/memories/attachments.ts composes the same
-- for the turn's vector). A turn is its speaker's words, so it reads "Andrew: I went hiking": a
-- message that names the speaker finds what they said though they never say their own name. A text
-- that already opens with the speaker's name and a colon (an integration that records "Andrew: …")
-- is not given the name twice; a turn without a speaker is its text alone. Its words are the turn's
-- own in the conversation index and in GET /interactions?q=.
create or replace function mhq.interaction_text(p_speaker text, p_content text, p_attachments jsonb)
returns text
language sql immutable
as $$
  select case when btrim(coalesce(p_speaker, '')) = ''
                or lower(left(p_content, char_length(btrim(p_speaker)) + 1)) = lower(btrim(p_speaker)) || ':'
              then p_content
              else btrim(p_speaker) || ': ' || p_content end
      || coalesce((
    select string_agg(E'\n[' || (e.a ->> 'kind') || ': ' || (e.a ->> 'caption') || ']', '' order by e.n)
      -- (not an array: the table's check refuses it, but the fts column is computed first)
      from jsonb_array_elements(case when jsonb_typeof(p_attachments) = 'array' then p_attachments else '[]'::jsonb end)
           with ordinality e (a, n)
     where jsonb_typeof(e.a) = 'object' and coalesce(e.a ->> 'caption', '') <> ''), '')
$$;
