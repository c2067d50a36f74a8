-- Keeps knowledge_vocabulary counted with the entries every reader reads (mhq.knowledge_entry_read):
-- an entry written, edited (title, tags, status) or deleted, and an import published, whose entries
-- are read from then on.
create or replace function mhq.knowledge_vocabulary_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_table_name = 'knowledge_imports' then
    perform mhq.count_knowledge_words((
      select jsonb_agg(jsonb_build_object('title', k.title, 'tags', k.tags, 'sign', 1))
        from gone g join knowledge_entries k on k.import_id = g.id
       where mhq.knowledge_entry_read(k.status, k.import_id)));
  elsif tg_op = 'INSERT' then
    perform mhq.count_knowledge_words((
      select jsonb_agg(jsonb_build_object('title', f.title, 'tags', f.tags, 'sign', 1))
        from fresh f where mhq.knowledge_entry_read(f.status, f.import_id)));
  elsif tg_op = 'DELETE' then
    perform mhq.count_knowledge_words((
      select jsonb_agg(jsonb_build_object('title', g.title, 'tags', g.tags, 'sign', -1))
        from gone g where mhq.knowledge_entry_read(g.status, g.import_id)));
  else
    perform mhq.count_knowledge_words((
      select jsonb_agg(c.r) from (
        select jsonb_build_object('title', g.title, 'tags', g.tags, 'sign', -1) as r, g.status, g.import_id
          from gone g join fresh f on f.id = g.id
         where (f.title, f.tags, f.status, f.import_id) is distinct from (g.title, g.tags, g.status, g.import_id)
        union all
        select jsonb_build_object('title', f.title, 'tags', f.tags, 'sign', 1), f.status, f.import_id
          from fresh f join gone g on g.id = f.id
         where (f.title, f.tags, f.status, f.import_id) is distinct from (g.title, g.tags, g.status, g.import_id)
      ) c
      where mhq.knowledge_entry_read(c.status, c.import_id)));
  end if;
  return null;
end
$$;
