-- (Re)writes the postings and document rows of these interactions, all at once: each one's BM25F
-- document is its own text with its speaker and its attachments' captions (weight 1;
-- mhq.interaction_text), the two turns before it (0.5, 0.25), the two after it (0.3, 0.15; not
-- counted in its length) and its day (0.5). Each text involved is analysed once, however many
-- documents it is part of (a batch of turns of one conversation shares most of them).
-- Conversation labels follow in conversation order: a turn takes the label of the turn before it
-- unless that label started more than 24 hours earlier; a turn whose label changes (an earlier turn
-- arrived late, or bridged two runs) carries the rest of its old run with it. The document rows are
-- locked first, so two writers of the same rows take turns, each reading the neighbours anew.
-- Every table is read by the ids involved (the turns and their neighbours), never joined whole: a
-- step of a few turns costs the same however many turns the database holds.
create or replace function mhq.index_interactions(p_ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  v_ids uuid[];
  v_prev uuid[];
  v_prev2 uuid[];
  v_next uuid[];
  v_next2 uuid[];
  r record;
  conversation uuid;
  started timestamptz;
  old_conversation uuid;
  v_all uuid[];
begin
  insert into interaction_search_docs as d (interaction_id, agent_id, client_id, len)
  select i.id, i.agent_id, i.client_id, 0 from interactions i where i.id = any(p_ids)
   order by i.id
  on conflict (interaction_id) do update set len = d.len;

  -- the targets in conversation order, with their neighbours
  select coalesce(array_agg(n.id order by n.occurred_at, n.seq), '{}'),
         coalesce(array_agg(n.p1 order by n.occurred_at, n.seq), '{}'),
         coalesce(array_agg(n.p2 order by n.occurred_at, n.seq), '{}'),
         coalesce(array_agg(n.n1 order by n.occurred_at, n.seq), '{}'),
         coalesce(array_agg(n.n2 order by n.occurred_at, n.seq), '{}')
    into v_ids, v_prev, v_prev2, v_next, v_next2
    from (
      select i.id, i.occurred_at, i.seq, a.p1, a.n1,
             case when a.p1 is not null then mhq.interaction_neighbour(a.p1, -1) end as p2,
             case when a.n1 is not null then mhq.interaction_neighbour(a.n1, 1) end as n2
        from interactions i
       cross join lateral (select mhq.interaction_neighbour(i.id, -1) as p1, mhq.interaction_neighbour(i.id, 1) as n1) a
       where i.id = any(p_ids)
    ) n;

  v_all := array(select distinct u.id from unnest(v_ids || v_prev || v_prev2 || v_next || v_next2) u (id) where u.id is not null);

  with t as (
    select u.id, u.prev_id, u.prev2_id, u.next_id, u.next2_id
      from unnest(v_ids, v_prev, v_prev2, v_next, v_next2) as u (id, prev_id, prev2_id, next_id, next2_id)
  ),
  -- the rows involved, read once by their ids
  src as (
    select x.id, x.agent_id, x.client_id, x.speaker, x.content, x.attachments, x.occurred_at from interactions x where x.id = any(v_all)
  ),
  -- each text's lexemes, once
  own as (
    select x.id, w.lexeme, coalesce(array_length(w.positions, 1), 1)::float8 as n
      from src x, unnest(to_tsvector('english', mhq.interaction_text(x.speaker, x.content, x.attachments))) w
  ),
  terms as (
    select t.id, o.lexeme, f.w * o.n as tf, f.counted
      from t
     cross join lateral (values (t.id, 1.0::float8, true), (t.prev_id, 0.5::float8, true), (t.prev2_id, 0.25::float8, true),
                                (t.next_id, 0.3::float8, false), (t.next2_id, 0.15::float8, false)) as f (src, w, counted)
      join own o on o.id = f.src
    union all
    select t.id, w.lexeme, 0.5 * coalesce(array_length(w.positions, 1), 1), true
      from t join src x on x.id = t.id,
           unnest(to_tsvector('english', to_char(x.occurred_at at time zone 'UTC', 'FMDD FMMonth YYYY'))) w
  ),
  docs as (
    select g.id, g.lexeme, sum(g.tf)::real as tf, (sum(sum(g.tf) filter (where g.counted)) over (partition by g.id))::real as len
      from terms g group by g.id, g.lexeme
  ),
  stale as (
    delete from interaction_postings p
     where p.interaction_id = any(v_ids)
       and not exists (select 1 from docs c where c.id = p.interaction_id and c.lexeme = p.lexeme)
  ),
  written as (
    insert into interaction_postings as p (interaction_id, lexeme, agent_id, client_id, tf, len)
    select c.id, c.lexeme, x.agent_id, x.client_id, c.tf, c.len
      from docs c join src x on x.id = c.id
     order by c.id, c.lexeme
    on conflict (interaction_id, lexeme) do update set tf = excluded.tf, len = excluded.len
      where p.tf is distinct from excluded.tf or p.len is distinct from excluded.len
  ),
  lengths as (
    select c.id, max(c.len) as len from docs c group by c.id
  ),
  own_counts as (
    select o.id, count(*)::int as n from own o group by o.id
  )
  update interaction_search_docs d
     set len = coalesce(l.len, 0), prev_id = t.prev_id, next_id = t.next_id, own_terms = coalesce(oc.n, 0)
    from t
    left join lengths l on l.id = t.id
    left join own_counts oc on oc.id = t.id
   where d.interaction_id = t.id and d.interaction_id = any(v_ids);

  for r in
    select u.id, u.prev_id, x.occurred_at
      from unnest(v_ids, v_prev) with ordinality as u (id, prev_id, ord)
      join interactions x on x.id = u.id
     order by u.ord
  loop
    select d.conversation_id into old_conversation from interaction_search_docs d where d.interaction_id = r.id;
    conversation := r.id;
    started := r.occurred_at;
    if r.prev_id is not null then
      select d.conversation_id, d.conversation_started_at into conversation, started
        from interaction_search_docs d where d.interaction_id = r.prev_id;
      if conversation is null or started is null or started < r.occurred_at - interval '24 hours' then
        conversation := r.id;
        started := r.occurred_at;
      end if;
    end if;
    update interaction_search_docs d set conversation_id = conversation, conversation_started_at = started
     where d.interaction_id = r.id;
    -- an earlier turn arrived late (or bridged two runs): the rest of the run, at most a day of
    -- turns, takes the new label
    if old_conversation is not null and old_conversation <> conversation then
      update interaction_search_docs d set conversation_id = conversation, conversation_started_at = started
       where d.interaction_id in (select x.interaction_id from interaction_search_docs x
                                   where x.conversation_id = old_conversation order by x.interaction_id for update);
    end if;
  end loop;
end
$$;

revoke all on function mhq.index_interactions(uuid[]) from public;
