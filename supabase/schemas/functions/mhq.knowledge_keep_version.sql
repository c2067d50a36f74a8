-- Every change of what an entry says (title, content, category, tags, status) keeps the previous
-- version and raises the version number. Embedding and access-counter updates are not changes.
-- Security definer so that callers need (and have) no write access to the history itself.
create or replace function mhq.knowledge_keep_version() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if (new.title, new.content, new.category, new.tags, new.status)
     is not distinct from (old.title, old.content, old.category, old.tags, old.status) then
    new.version := old.version;
    new.updated_at := old.updated_at;
    new.updated_by := old.updated_by;
    return new;
  end if;
  insert into knowledge_entry_versions (entry_id, version, title, content, category, tags, status, edited_by, edited_at)
  values (old.id, old.version, old.title, old.content, old.category, old.tags, old.status, old.updated_by, old.updated_at);
  new.version := old.version + 1;
  new.updated_at := now();
  new.updated_by := coalesce(nullif(mhq.claims() ->> 'name', ''), new.updated_by);
  return new;
end
$$;
