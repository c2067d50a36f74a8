-- A note or an event that names a contact belongs to that contact's client. The insert policies
-- checked the writer's own scope but not the contact's: a field agent could file a note or an event
-- of its own client against another client's contact (an id it cannot read), and whoever read that
-- contact's notes then saw it. The policies now also require the contact to be one the writer can
-- see, of the row's client, as interactions' insert policy does.
drop policy event_log_insert on event_log;
create policy event_log_insert on event_log for insert to mhq_app
  with check (
    mhq.can_write_agent_log(agent_id, client_id)
    and (contact_id is null or mhq.contact_of_client(contact_id, client_id))
  );

drop policy agent_notes_insert on agent_notes;
create policy agent_notes_insert on agent_notes for insert to mhq_app
  with check (
    mhq.can_write_agent_log(agent_id, client_id)
    and expires_at > now()
    and (contact_id is null or mhq.contact_of_client(contact_id, client_id))
  );

-- Rows an earlier release let through stay their writer's, without the link to the other client's
-- contact (locked in id order, as every multi-row update locks them).
update event_log e set contact_id = null
  from (select l.id from event_log l join contacts c on c.id = l.contact_id
         where c.client_id is distinct from l.client_id order by l.id for update of l) w
 where e.id = w.id;
update agent_notes n set contact_id = null
  from (select a.id from agent_notes a join contacts c on c.id = a.contact_id
         where c.client_id is distinct from a.client_id order by a.id for update of a) w
 where n.id = w.id;
