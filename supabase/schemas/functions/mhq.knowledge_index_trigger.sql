create or replace function mhq.knowledge_index_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    perform mhq.index_knowledge(array(select f.id from fresh f order by f.id));
  else
    -- what an entry says or whether it is published changed (not its counters or its vector)
    perform mhq.index_knowledge(array(
      select f.id from fresh f join gone g on g.id = f.id
       where (f.title, f.content, f.tags, f.status) is distinct from (g.title, g.content, g.tags, g.status)
       order by f.id));
  end if;
  return null;
end
$$;
