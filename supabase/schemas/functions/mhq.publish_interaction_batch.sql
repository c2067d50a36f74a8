-- Makes the caller's batch visible, all of it at once: one short statement in the caller's last
-- step, after every turn was written and indexed. Refused (and nothing shown) when a contact its
-- turns name (`p_contacts`, as sent: an erasure may have deleted those turns meanwhile) opted out
-- (MHQ09: the contacts are read with the same row lock every write naming a contact takes,
-- mhq.refuse_opted_out_contact) or when its turns are not all there (MHQ10). The speakers of its turns and the names they mention
-- join the agent's people, as a single write's do (mhq.record_interaction_people). Answers the number of turns published.
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
  select d.agent_id, d.name, d.source
    from (select distinct on (lower(x.name)) x.agent_id, x.name, x.source
            from (select i.agent_id, mhq.person_name(i.speaker) as name, 'speaker' as source, i.occurred_at, i.seq
                    from interactions i where i.batch_id = p_batch
                  union all
                  select i.agent_id, n.name, 'mention', i.occurred_at, i.seq
                    from interactions i cross join lateral mhq.names_in_text(i.content, false) n (name)
                   where i.batch_id = p_batch) x
           where x.name is not null
           order by lower(x.name), x.source = 'mention', x.occurred_at, x.seq) d
   where not exists (select 1 from agent_people p
                      where p.agent_id = d.agent_id and lower(p.name) = lower(d.name) and (p.source <> 'mention' or d.source = 'mention'))
   order by lower(d.name)
  on conflict (agent_id, lower(name)) do update set source = excluded.source
   where agent_people.source = 'mention' and excluded.source <> 'mention';
  return stored;
end
$$;

revoke all on function mhq.publish_interaction_batch(uuid, uuid[]) from public;
grant execute on function mhq.publish_interaction_batch(uuid, uuid[]) to mhq_app;
