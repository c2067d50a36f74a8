-- Batches of interactions stored in steps. POST /interactions/batch writes its turns and indexes
-- them in short steps, each its own transaction, so that no request waits seconds behind an
-- import; the turns stay invisible to every reader until one short statement publishes the whole
-- batch (mhq.publish_interaction_batch). A batch's row:
--   'staging'   its turns are being written and indexed; the process storing it renews its lease
--               with every step;
--   'published' visible; the turns around it are indexed again, then the row is deleted;
--   'abandoned' given up (a failed step, or a lease that ran out: the process stopped); its turns are
--               deleted in steps, then the row.
-- `external_ids` are the caller message ids the batch stores: while it is 'staging', a write naming
-- one of them waits until the batch is published (and is then answered as stored) or given up.
create table interaction_batches (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references agents (id) on delete cascade,
  state text not null default 'staging' check (state in ('staging', 'published', 'abandoned')),
  -- the turns the batch writes (its items less those stored before)
  turns integer not null check (turns between 1 and 500),
  external_ids text[] not null default '{}' check (cardinality(external_ids) <= 500),
  created_at timestamptz not null default now(),
  lease_until timestamptz not null,
  published_at timestamptz
);
-- serves: the batches still being stored or cleaned up (readers hide their turns)
create index interaction_batches_hidden_idx on interaction_batches (state) where state <> 'published';
-- serves: a write looking for the batches of its agent that claim its message ids
create index interaction_batches_agent_idx on interaction_batches (agent_id) where state = 'staging';

alter table interaction_batches enable row level security;
-- an agent's own batches: it creates them, renews their lease and gives them up; publishing goes
-- through mhq.publish_interaction_batch. HQ users and other agents see none.
grant select, insert (agent_id, turns, external_ids, lease_until) on interaction_batches to mhq_app;
grant update (state, lease_until) on interaction_batches to mhq_app;
create policy interaction_batches_select on interaction_batches for select to mhq_app
  using ((select mhq.is_agent()) and agent_id = (select mhq.agent_id()));
create policy interaction_batches_insert on interaction_batches for insert to mhq_app
  with check ((select mhq.is_agent()) and agent_id = (select mhq.agent_id()) and state = 'staging');
create policy interaction_batches_update on interaction_batches for update to mhq_app
  using ((select mhq.is_agent()) and agent_id = (select mhq.agent_id()) and state = 'staging')
  with check ((select mhq.is_agent()) and agent_id = (select mhq.agent_id()) and state in ('staging', 'abandoned'));

-- The batch a turn was stored by (null: a single write). Never changed afterwards: a batch's turns
-- turn visible when its row does, without rewriting the turns (and their vector indexes).
alter table interactions add column batch_id uuid;
-- serves: a batch's turns (its indexing steps, publishing, the cleanup of one given up)
create index interactions_batch_idx on interactions (batch_id) where batch_id is not null;

-- The batches of interactions no reader may see yet: those still being stored in steps ('staging')
-- and those given up ('abandoned', deleted in steps). A batch's turns become visible at once when
-- its row turns 'published' (mhq.publish_interaction_batch). Few rows at any time, so readers
-- evaluate it once per statement: `batch_id <> all ((select mhq.hidden_interaction_batches())::uuid[])`.
create or replace function mhq.hidden_interaction_batches()
returns uuid[]
language sql stable security definer
set search_path = public, pg_temp
as $$
  select coalesce(array_agg(b.id), '{}') from interaction_batches b where b.state <> 'published'
$$;

revoke all on function mhq.hidden_interaction_batches() from public;
grant execute on function mhq.hidden_interaction_batches() to mhq_app;

-- Readers never see the turns of a batch that is not published; a turn is written into a batch only
-- by its own agent while the batch is being stored.
drop policy interactions_select on interactions;
create policy interactions_select on interactions for select to mhq_app
  using (
    (
      (select mhq.is_hq())
      or ((select mhq.is_internal_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator'))
      or ((select mhq.is_field_agent()) and (select mhq.agent_role()) in ('manager', 'orchestrator') and client_id = (select mhq.client_id()))
    )
    and (batch_id is null or batch_id <> all ((select mhq.hidden_interaction_batches())::uuid[]))
  );
drop policy interactions_insert on interactions;
create policy interactions_insert on interactions for insert to mhq_app
  with check (
    agent_id = (select mhq.agent_id())
    and ((select mhq.is_internal_agent()) or ((select mhq.is_field_agent()) and client_id = (select mhq.client_id())))
    and (contact_id is null or mhq.contact_of_client(contact_id, client_id))
    and (batch_id is null or exists (select 1 from interaction_batches b
                                      where b.id = batch_id and b.agent_id = (select mhq.agent_id()) and b.state = 'staging'))
  );

-- The functions below as in supabase/schemas/functions/ (new ones, and those that now know batches).

-- The turn before (step -1) or after (step 1) an interaction in its conversation, in (occurred_at,
-- seq) order: the time it happened, then the order it was recorded in. A turn of the caller's own
-- thread (conversation_key) has its neighbours in that thread, at any distance in time; any other
-- turn in the conversation inferred from agent, channel, contact and client, each turn at most
-- mhq.conversation_gap() from the one before. PL/pgSQL, so each branch keeps its own cached plan
-- down its index (interactions_thread_idx, interactions_conversation_idx). Turns of a batch still
-- being stored are neighbours only of turns of the same batch (mhq.hidden_interaction_batches).
create or replace function mhq.interaction_neighbour(p_id uuid, step int)
returns uuid
language plpgsql stable
set search_path = public, pg_temp
as $$
declare
  x record;
  found_id uuid;
  hidden uuid[];
begin
  select i.id, i.agent_id, i.channel, coalesce(i.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) as contact,
         coalesce(i.client_id, '00000000-0000-0000-0000-000000000000'::uuid) as client, i.occurred_at, i.seq,
         i.conversation_key, i.batch_id
    into x from interactions i where i.id = p_id;
  if not found then
    return null;
  end if;
  hidden := array_remove(mhq.hidden_interaction_batches(), x.batch_id);
  if x.conversation_key is not null then
    if step < 0 then
      select p.id into found_id from interactions p
       where p.agent_id = x.agent_id and p.conversation_key = x.conversation_key
         and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
         and (p.occurred_at, p.seq) < (x.occurred_at, x.seq)
         and (p.batch_id is null or p.batch_id <> all(hidden))
       order by p.occurred_at desc, p.seq desc
       limit 1;
    else
      select p.id into found_id from interactions p
       where p.agent_id = x.agent_id and p.conversation_key = x.conversation_key
         and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
         and (p.occurred_at, p.seq) > (x.occurred_at, x.seq)
         and (p.batch_id is null or p.batch_id <> all(hidden))
       order by p.occurred_at, p.seq
       limit 1;
    end if;
  elsif step < 0 then
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel and p.conversation_key is null
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.seq) < (x.occurred_at, x.seq) and p.occurred_at >= x.occurred_at - mhq.conversation_gap()
       and (p.batch_id is null or p.batch_id <> all(hidden))
     order by p.occurred_at desc, p.seq desc
     limit 1;
  else
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel and p.conversation_key is null
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.seq) > (x.occurred_at, x.seq) and p.occurred_at <= x.occurred_at + mhq.conversation_gap()
       and (p.batch_id is null or p.batch_id <> all(hidden))
     order by p.occurred_at, p.seq
     limit 1;
  end if;
  return found_id;
end
$$;

-- The calling agent's own interactions, by id or by the caller's message id (externalId): what a
-- write stored, read back for its answer, and what a retried write stored the first time (turns of a
-- batch still being stored are not stored yet: mhq.hidden_interaction_batches). Security
-- definer because specialists write interactions but may not read them (interactions_select); it
-- returns only rows the caller wrote itself (its agent id from its claims, never from an argument).
create or replace function mhq.own_interactions(p_ids uuid[], p_external_ids text[])
returns table (
  id uuid, client_id uuid, agent_id uuid, contact_id uuid, channel text, direction text, speaker text, content text,
  occurred_at timestamptz, embedded boolean, created_at timestamptz, conversation_key text, external_id text,
  conversation text, attachments jsonb
)
language sql stable security definer
set search_path = public, pg_temp
as $$
  select i.id, i.client_id, i.agent_id, i.contact_id, i.channel, i.direction, i.speaker, i.content, i.occurred_at,
         i.embedding is not null, i.created_at, i.conversation_key, i.external_id,
         coalesce(i.conversation_key, d.conversation_id::text, i.id::text), i.attachments
    from interactions i
    left join interaction_search_docs d on d.interaction_id = i.id
   where mhq.agent_id() is not null and i.agent_id = mhq.agent_id()
     and (i.id = any(p_ids) or i.external_id = any(p_external_ids))
     and (i.batch_id is null or i.batch_id <> all (mhq.hidden_interaction_batches()))
$$;

revoke all on function mhq.own_interactions(uuid[], text[]) from public;
grant execute on function mhq.own_interactions(uuid[], text[]) to mhq_app;

-- New turns, once per statement: each is indexed, and so are the two turns on each side of it whose
-- documents hold it — all in one mhq.index_interactions call, each such turn once however many of the
-- new turns it neighbours. A batch of turns of one conversation thus costs one indexing per turn
-- (plus up to four around the batch) instead of up to five, and each text is analysed once. Each conversation written to is locked first (mhq.conversation_lock_key),
-- in key order so that two statements never wait on each other crosswise; the neighbours are looked
-- up after the locks, so turns committed meanwhile are seen. Turns of a batch being stored in steps
-- are left out: the batch indexes them itself (mhq.index_interaction_batch) and the turns around
-- them once it is published.
create or replace function mhq.interactions_index_added() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
declare
  k integer;
begin
  if not exists (select 1 from added a where a.batch_id is null) then
    return null;
  end if;
  for k in
    select distinct mhq.conversation_lock_key(a.agent_id, a.channel, a.contact_id, a.client_id, a.conversation_key)
      from added a where a.batch_id is null order by 1
  loop
    perform pg_advisory_xact_lock(hashtext('mhq.conversation'), k);
  end loop;
  perform mhq.index_interactions(array(
    with recursive around (id, step, hops) as (
      select a.id, 0, 0 from added a where a.batch_id is null
      union all
      -- up to two turns before and two after each new one
      select n.id, s.step, w.hops + 1
        from around w
       cross join (values (-1), (1)) s (step)
       cross join lateral (select mhq.interaction_neighbour(w.id, s.step) as id) n
       where w.hops < 2 and (w.step = 0 or w.step = s.step) and n.id is not null
    )
    select distinct w.id from around w
  ));
  return null;
end
$$;

revoke all on function mhq.interactions_index_added() from public;

-- New turns, once per statement: each agent's speakers not yet among its people are added (see
-- agent_people), in key order so that concurrent statements never wait on each other crosswise.
-- A batch's turns being stored in steps count when it is published (mhq.publish_interaction_batch).
create or replace function mhq.record_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if not exists (select 1 from added a where a.batch_id is null) then
    return null;
  end if;
  insert into agent_people (agent_id, name, source)
  select d.agent_id, d.name, 'speaker'
    from (select distinct on (x.agent_id, lower(x.name)) x.agent_id, x.name
            from (select a.agent_id, mhq.person_name(a.speaker) as name, a.occurred_at, a.seq from added a where a.batch_id is null) x
           where x.name is not null
           order by x.agent_id, lower(x.name), x.occurred_at, x.seq) d
   where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
   order by d.agent_id, lower(d.name)
  on conflict do nothing;
  return null;
end
$$;

revoke all on function mhq.record_interaction_people() from public;

-- Deleted interactions (the opt-out erasure) take their words out of the statistics at once: the
-- statistics hold words, and an erased contact's must not outlive its conversations. The steps
-- that delete the turns of a batch given up before it was published (`mhq.discarding_batch` set
-- for their transaction) leave that to the next refresh: those turns were never shown to anyone,
-- and a refresh per step would hold the database far longer than the step.
create or replace function mhq.interactions_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if current_setting('mhq.discarding_batch', true) = 'on' then
    return null;
  end if;
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, g.agent_id as id from gone g
           union select distinct 'client', g.client_id from gone g where g.client_id is not null
           order by 1, 2) s;
  return null;
end
$$;

-- Which of these caller message ids (externalId) the calling agent's turns already hold, and how:
-- 'stored' by a visible turn (the retry is answered with it), 'staging' by a batch still being
-- stored, whether its turn is written yet or only named by the batch, or 'abandoned' by a batch
-- given up whose turns are not deleted yet (a batch still 'staging' past its lease counts as
-- abandoned). A write must wait until no id of its own is 'staging' or 'abandoned', so that a retry
-- racing its first attempt stores every turn once. Security definer: specialists may not read
-- interactions; only the caller's own ids are answered (its agent id from its claims).
create or replace function mhq.interaction_external_id_holders(p_external_ids text[])
returns table (external_id text, id uuid, state text)
language sql stable security definer
set search_path = public, pg_temp
as $$
  select i.external_id, i.id,
         case when b.id is null or b.state = 'published' then 'stored'
              when b.state = 'staging' and b.lease_until >= now() then 'staging'
              else 'abandoned' end
    from interactions i
    left join interaction_batches b on b.id = i.batch_id
   where mhq.agent_id() is not null and i.agent_id = mhq.agent_id() and i.external_id = any(p_external_ids)
  union all
  select x.external_id, null::uuid, case when b.lease_until >= now() then 'staging' else 'abandoned' end
    from interaction_batches b
   cross join lateral unnest(b.external_ids) as x (external_id)
   where mhq.agent_id() is not null and b.agent_id = mhq.agent_id() and b.state = 'staging'
     and b.external_ids && p_external_ids and x.external_id = any(p_external_ids)
$$;

revoke all on function mhq.interaction_external_id_holders(text[]) from public;
grant execute on function mhq.interaction_external_id_holders(text[]) to mhq_app;

-- Indexes turns of the caller's own batch while it is being stored (one step of it): their
-- postings, documents and conversation labels, as mhq.index_interactions does for every new turn.
-- Their neighbours are the visible turns and the batch's own (mhq.interaction_neighbour); the
-- visible turns around them are indexed again once the batch is published. Security definer (the
-- indexing tables are the database's own); only ids of a batch of the caller's that is still
-- 'staging' are indexed.
create or replace function mhq.index_interaction_batch(p_batch uuid, p_ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
begin
  if not exists (select 1 from interaction_batches b
                  where b.id = p_batch and b.state = 'staging' and b.agent_id = mhq.agent_id()) then
    raise exception 'This batch is no longer being stored' using errcode = 'MHQ10';
  end if;
  perform mhq.index_interactions(array(select i.id from interactions i where i.id = any(p_ids) and i.batch_id = p_batch));
end
$$;

revoke all on function mhq.index_interaction_batch(uuid, uuid[]) from public;
grant execute on function mhq.index_interaction_batch(uuid, uuid[]) to mhq_app;

-- Makes the caller's batch visible, all of it at once: one short statement in the caller's last
-- step, after every turn was written and indexed. Refused (and nothing shown) when a contact its
-- turns name (`p_contacts`, as sent: an erasure may have deleted those turns meanwhile) opted out
-- (MHQ09: the contacts are read with the same row lock every write naming a contact takes,
-- mhq.refuse_opted_out_contact) or when its turns are not all there (MHQ10). The speakers of its turns join the agent's people, as a
-- single write's do (mhq.record_interaction_people). Answers the number of turns published.
create or replace function mhq.publish_interaction_batch(p_batch uuid, p_contacts uuid[])
returns integer
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  b record;
  stored integer;
begin
  select * into b from interaction_batches x
   where x.id = p_batch and x.agent_id = mhq.agent_id() and x.state = 'staging'
     for update;
  if not found then
    raise exception 'This batch is no longer being stored' using errcode = 'MHQ10';
  end if;
  -- the contacts it names, read with the row lock a write naming a contact takes: an erasure in
  -- progress is waited for and its opt-out seen
  if exists (select 1 from (select c.opt_out from contacts c
                             where c.id = any(p_contacts)
                                or c.id in (select i.contact_id from interactions i where i.batch_id = p_batch and i.contact_id is not null)
                             order by c.id
                               for key share) c
              where c.opt_out) then
    raise exception 'This contact opted out; nothing more is stored about them' using errcode = 'MHQ09';
  end if;
  select count(*) into stored from interactions i where i.batch_id = p_batch;
  if stored <> b.turns then
    raise exception 'This batch lost turns while it was being stored' using errcode = 'MHQ10';
  end if;
  update interaction_batches set state = 'published', published_at = now() where id = p_batch;
  insert into agent_people (agent_id, name, source)
  select d.agent_id, d.name, 'speaker'
    from (select distinct on (lower(x.name)) x.agent_id, x.name
            from (select i.agent_id, mhq.person_name(i.speaker) as name, i.occurred_at, i.seq
                    from interactions i where i.batch_id = p_batch) x
           where x.name is not null
           order by lower(x.name), x.occurred_at, x.seq) d
   where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
   order by lower(d.name)
  on conflict do nothing;
  return stored;
end
$$;

revoke all on function mhq.publish_interaction_batch(uuid, uuid[]) from public;
grant execute on function mhq.publish_interaction_batch(uuid, uuid[]) to mhq_app;

-- Where a published batch meets the rest of its conversations: of these turns of the batch, those
-- whose document no longer names the neighbours they have now (a turn written beside them, or
-- another batch published, while this one was hidden), and the turns outside the batch that are
-- now next to one of them. Their documents and those of the turns around them (mhq.interactions_around)
-- are written again. A job's (the owner's) function, run on a slice of a batch's turns at a time.
create or replace function mhq.interaction_batch_seams(p_batch uuid, p_ids uuid[])
returns uuid[]
language sql stable
set search_path = public, pg_temp
as $$
  with now_beside as (
    select i.id, d.prev_id, d.next_id, mhq.interaction_neighbour(i.id, -1) as p1, mhq.interaction_neighbour(i.id, 1) as n1
      from interactions i left join interaction_search_docs d on d.interaction_id = i.id
     where i.id = any(p_ids) and i.batch_id = p_batch
  ),
  seams as (
    select b.id from now_beside b where b.prev_id is distinct from b.p1 or b.next_id is distinct from b.n1
    union
    select x.id
      from now_beside b cross join lateral (values (b.p1), (b.n1)) x (id)
      join interactions o on o.id = x.id
     where o.batch_id is distinct from p_batch
  )
  select coalesce(array_agg(s.id), '{}') from seams s
$$;

revoke all on function mhq.interaction_batch_seams(uuid, uuid[]) from public;

-- These turns and the two turns on each side of each in its conversation, whose documents hold
-- them, in conversation order: what is indexed again when turns' neighbours change (as
-- mhq.interactions_index_added does for new turns).
create or replace function mhq.interactions_around(p_ids uuid[])
returns uuid[]
language sql stable
set search_path = public, pg_temp
as $$
  with recursive around (id, step, hops) as (
    select x.id, 0, 0 from unnest(p_ids) x (id)
    union all
    select n.id, s.step, w.hops + 1
      from around w
     cross join (values (-1), (1)) s (step)
     cross join lateral (select mhq.interaction_neighbour(w.id, s.step) as id) n
     where w.hops < 2 and (w.step = 0 or w.step = s.step) and n.id is not null
  )
  select coalesce(array_agg(i.id order by i.occurred_at, i.seq), '{}')
    from interactions i where i.id in (select a.id from around a)
$$;

revoke all on function mhq.interactions_around(uuid[]) from public;
