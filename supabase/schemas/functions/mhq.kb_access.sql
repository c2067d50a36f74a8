create or replace function mhq.kb_access() returns text
language sql stable as $$ select mhq.claims() ->> 'kb_access' $$;
