-- Whether every reader of the knowledge base reads an entry: published, and not in an import still
-- being written or given up (its row in knowledge_imports hides its entries from every reader).
create or replace function mhq.knowledge_entry_read(p_status text, p_import uuid)
returns boolean
language sql stable
set search_path = public, pg_temp
as $$
  select p_status = 'published' and (p_import is null or not exists (select 1 from knowledge_imports i where i.id = p_import))
$$;
