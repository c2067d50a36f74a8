-- (Re)writes one interaction's postings and document row. The document row is locked first, so two
-- writers of the same row (a turn and its late-arriving neighbour) take turns, each reading the
-- neighbours anew.
create or replace function mhq.index_interaction(p_id uuid)
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  r record;
  v_prev uuid;
  v_prev2 uuid;
  v_next uuid;
  v_next2 uuid;
  conversation uuid;
  started timestamptz;
  old_conversation uuid;
  lexemes text[];
  tfs real[];
  doc_len real;
begin
  select i.id, i.agent_id, i.client_id, i.content, i.occurred_at into r from interactions i where i.id = p_id;
  if not found then
    return;
  end if;
  insert into interaction_search_docs as d (interaction_id, agent_id, client_id, len)
  values (r.id, r.agent_id, r.client_id, 0)
  on conflict (interaction_id) do update set len = d.len
  returning d.conversation_id into old_conversation;
  v_prev := mhq.interaction_neighbour(r.id, -1);
  v_prev2 := case when v_prev is not null then mhq.interaction_neighbour(v_prev, -1) end;
  v_next := mhq.interaction_neighbour(r.id, 1);
  v_next2 := case when v_next is not null then mhq.interaction_neighbour(v_next, 1) end;
  conversation := r.id;
  started := r.occurred_at;
  if v_prev is not null then
    select d.conversation_id, d.conversation_started_at into conversation, started
      from interaction_search_docs d where d.interaction_id = v_prev;
    if conversation is null or started is null or started < r.occurred_at - interval '24 hours' then
      conversation := r.id;
      started := r.occurred_at;
    end if;
  end if;
  select coalesce(array_agg(t.lexeme), '{}'), coalesce(array_agg(t.tf), '{}'), coalesce(max(t.len), 0)
    into lexemes, tfs, doc_len
    from mhq.interaction_context_terms(r.id, v_prev, v_prev2, v_next, v_next2) t;
  delete from interaction_postings p where p.interaction_id = r.id and p.lexeme <> all (lexemes);
  insert into interaction_postings as p (interaction_id, lexeme, agent_id, client_id, tf, len)
  select r.id, u.lexeme, r.agent_id, r.client_id, u.tf, doc_len
    from unnest(lexemes, tfs) as u (lexeme, tf)
  on conflict (interaction_id, lexeme) do update set tf = excluded.tf, len = excluded.len
    where p.tf is distinct from excluded.tf or p.len is distinct from excluded.len;
  update interaction_search_docs d
     set len = doc_len, prev_id = v_prev, next_id = v_next,
         conversation_id = conversation, conversation_started_at = started,
         own_terms = length(to_tsvector('english', r.content))
   where d.interaction_id = r.id;
  -- an earlier turn arrived late (or bridged two runs): the rest of the run, at most a day of
  -- turns, takes the new label
  if old_conversation is not null and old_conversation <> conversation then
    update interaction_search_docs d set conversation_id = conversation, conversation_started_at = started
     where d.interaction_id in (select x.interaction_id from interaction_search_docs x
                                 where x.conversation_id = old_conversation order by x.interaction_id for update);
  end if;
end
$$;

revoke all on function mhq.index_interaction(uuid) from public;
