-- Which of the given knowledge entries were captured from a resolved escalation. Security definer so a
-- field agent learns that an entry is a proven fix without seeing the (other client's) escalation.
create or replace function mhq.captured_fix_ids(p_ids uuid[]) returns uuid[]
language sql stable security definer set search_path = public, pg_temp as $$
  select coalesce(array_agg(distinct knowledge_entry_id), '{}')
    from escalations
   where status = 'resolved' and knowledge_entry_id = any(p_ids)
$$;

revoke all on function mhq.captured_fix_ids(uuid[]) from public;
grant execute on function mhq.captured_fix_ids(uuid[]) to mhq_app;
