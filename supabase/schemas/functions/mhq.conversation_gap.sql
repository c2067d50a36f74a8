create or replace function mhq.conversation_gap() returns interval
language sql immutable
as $$ select interval '6 hours' $$;
