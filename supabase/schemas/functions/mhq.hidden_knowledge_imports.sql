-- The knowledge imports no reader may see yet: those still being written in steps ('staging') and
-- those given up ('abandoned', deleted in steps). An import's entries become visible at once when
-- its row is deleted (mhq.publish_knowledge_import). Few rows at any time, so readers evaluate it
-- once per statement: `import_id <> all ((select mhq.hidden_knowledge_imports())::uuid[])`.
create or replace function mhq.hidden_knowledge_imports()
returns uuid[]
language sql stable security definer
set search_path = public, pg_temp
as $$
  select coalesce(array_agg(i.id), '{}') from knowledge_imports i
$$;

revoke all on function mhq.hidden_knowledge_imports() from public;
grant execute on function mhq.hidden_knowledge_imports() to mhq_app;
