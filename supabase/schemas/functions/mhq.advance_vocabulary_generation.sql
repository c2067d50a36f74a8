create or replace function mhq.advance_vocabulary_generation() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  perform nextval('mhq.vocabulary_generation');
  return null;
end
$$;

revoke all on function mhq.advance_vocabulary_generation() from public;
