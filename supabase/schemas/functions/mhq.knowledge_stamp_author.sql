create or replace function mhq.knowledge_stamp_author() returns trigger
language plpgsql as $$
declare
  who text := nullif(mhq.claims() ->> 'name', '');
begin
  new.created_by := coalesce(who, new.created_by);
  new.updated_by := coalesce(who, new.updated_by, new.created_by);
  return new;
end
$$;
