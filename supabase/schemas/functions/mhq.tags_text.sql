-- array_to_string is only "stable" (it calls element output functions); for text[] it is in fact
-- immutable, which a generated column requires.
create or replace function mhq.tags_text(p_tags text[]) returns text
language sql immutable parallel safe as $$ select coalesce(array_to_string(p_tags, ' '), '') $$;
