-- The text a turn is searched by: what was said, then each attachment's caption on a line of its own
-- as "[image: a photo of a red bike]" (lib/memories/attachments.ts composes the same for the turn's
-- vector). Its words are the turn's own in the conversation index and in GET /interactions?q=.
create or replace function mhq.interaction_text(p_content text, p_attachments jsonb)
returns text
language sql immutable
as $$
  select p_content || coalesce((
    select string_agg(E'\n[' || (e.a ->> 'kind') || ': ' || (e.a ->> 'caption') || ']', '' order by e.n)
      -- (not an array: the table's check refuses it, but the fts column is computed first)
      from jsonb_array_elements(case when jsonb_typeof(p_attachments) = 'array' then p_attachments else '[]'::jsonb end)
           with ordinality e (a, n)
     where jsonb_typeof(e.a) = 'object' and coalesce(e.a ->> 'caption', '') <> ''), '')
$$;
