create or replace function mhq.nil_uuid() returns uuid
language sql immutable
as $$ select '00000000-0000-0000-0000-000000000000'::uuid $$;
