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
