-- Written by `npm run db:diff -- erase_contact_marker_from_key` from supabase/schemas/: each function and
-- view below is its schema file as it stands, in full. To change one, change its schema file and generate a
-- new migration; never edit this one.
-- Changed: mhq.erase_contact.

-- supabase/schemas/functions/mhq.erase_contact.sql
-- Opt-out erasure: a contact who opts out has their data deleted, and their name, phone and email
-- redacted wherever else they appear within the erasure's reach.
--
-- mhq.erase_contact(id) runs as the owner because no caller role may delete interactions, facts or
-- suggestions, nor touch the audit log; it checks the caller itself (manager agents and HQ admins,
-- for contacts in their scope). In one transaction it:
--   1. deletes the contact's suggestions, facts, interactions (their text and embeddings with them),
--      events and notes;
--   2. redacts the contact's phone number (in any common format), email and full name (two words
--      or more; a single first name is too common to scrub safely) wherever they still appear in a
--      text or JSON column of the public schema within the erasure's reach — other contacts' facts,
--      unlinked interactions, agent memories and documents, the audit log — replacing them with
--      "[erased]" and clearing the embedding of any row it changed, so no vector still encodes the
--      erased text. The reach is the rows of the contact's own client (a row's client is its
--      client_id, else its agent's) and, when HQ or an internal manager erases, the rows of no client
--      (the knowledge base, internal agents' memories); never another client's rows, whose matching
--      words are another tenant's data about someone else. A field manager's erasure stays inside its
--      own client, as all its writes do: a contact it names after a phrase cannot rewrite HQ's rows.
--      Each table's rows are locked in key order before they change, tables with an agent or client
--      before the HQ-wide ones, as the access-counter fold locks memories, then knowledge entries.
--      Before any of that, the conversations whose turns it deletes or redacts are locked in key
--      order, as every write of a turn locks its conversation before it touches the turns around it:
--      a turn written meanwhile waits for the erasure rather than holding a conversation the erasure
--      needs while it waits for a turn the erasure holds (a deadlock). A turn that comes to name the
--      person while the erasure runs has its conversation locked before the erasure locks the turn.
--      A value that must be unique (a published knowledge entry's title, a turn's external id) and
--      would read like another once redacted gets a marker of its own, "[erased 1a2b3c4d]" (from the
--      row's primary key), so that no erasure fails on a uniqueness rule;
--   3. blanks the contact's name, phone, email and summary and marks it opted out.
-- What a field manager's erasure cannot reach, HQ finishes: when rows of no client still name the
-- person, their name, phone and email are kept in contact_hq_erasures (readable by HQ admins and
-- internal managers only; the field manager is not told how many HQ rows matched, as that would
-- tell it what HQ's rows say). An HQ admin or internal manager erasing the opted-out contact again
-- erases those mentions with what was kept there, within their own reach, and deletes the row;
-- mhq.keep_hq_mentions deletes it instead when HQ decides its rows are about someone else.
-- An agent's people (its trigger vocabulary) who are the contact — by full name, email or phone —
-- are deleted rather than redacted: "[erased]" is nobody's name.
-- Configuration tables (clients, agents, HQ users, keys, sessions, locked constants) are left
-- alone: a client or agent that happens to share the name is not the contact.
-- The audit log is otherwise append-only; erasing personal data from it is the one exception.
create or replace function mhq.erase_contact(p_contact_id uuid) returns jsonb
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  c contacts%rowtype;
  v_digits text;
  v_sep constant text := '[\s().-]*';
  v_patterns text[] := '{}';
  v_nsn text;
  v_re text;
  v_counts jsonb := '{}';
  v_n integer;
  v_redacted integer := 0;
  r record;
  v_marker text;
  v_field constant boolean := mhq.is_field_agent();
  v_owner text;
  v_reach text;
  v_match text;
  -- the conversations of the turns a condition selects, as lock keys in key order
  v_turn_keys constant text := 'select coalesce(array_agg(distinct k order by k), ''{}'') from (
      select mhq.conversation_lock_key(t.agent_id, t.channel, t.contact_id, t.client_id, t.conversation_key) as k
        from interactions t where %s) x';
  v_keys integer[];
  v_key integer;
  v_hq_left integer := 0;
  v_finishing boolean := false;
begin
  if not mhq.writes_canonical_memory() then
    raise exception 'only memory managers and HQ admins erase contacts' using errcode = '42501';
  end if;
  -- one erasure at a time: each refreshes the search statistics of every agent and client whose turns
  -- it deletes, then of those whose turns it redacts, statement by statement, and two at once would
  -- take those scopes' locks in different orders (a deadlock)
  perform pg_advisory_xact_lock(hashtext('mhq.erase_contact'));
  select * into c from contacts where id = p_contact_id for update;
  if not found or not mhq.in_contact_scope(c.client_id) then
    raise exception 'contact not found' using errcode = 'P0002';
  end if;
  if c.opt_out then
    -- HQ finishing a field manager's erasure: the mentions kept for it are what to look for
    select e.name, e.phone, e.email into c.name, c.phone, c.email
      from contact_hq_erasures e where e.contact_id = p_contact_id and not v_field for update;
    if not found then
      return jsonb_build_object('alreadyOptedOut', true);
    end if;
    v_finishing := true;
  end if;

  -- what to look for
  if c.phone is not null then
    v_digits := regexp_replace(c.phone, '[^0-9]', '', 'g');
    v_patterns := v_patterns || ('\+?' || array_to_string(regexp_split_to_array(v_digits, ''), v_sep));
    -- the national number, after a one- to three-digit country code, with an optional trunk 0
    for cc in 1..3 loop
      v_nsn := substr(v_digits, cc + 1);
      if length(v_nsn) >= 7 then
        v_patterns := v_patterns || ('0?' || array_to_string(regexp_split_to_array(v_nsn, ''), v_sep));
      end if;
    end loop;
  end if;
  if c.email is not null then
    v_patterns := v_patterns || regexp_replace(c.email, '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g');
  end if;
  if c.name is not null and c.name ~ '\S+\s+\S+' then
    v_patterns := v_patterns || regexp_replace(
      regexp_replace(btrim(c.name), '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g'), '\s+', '\\s+', 'g');
  end if;

  if array_length(v_patterns, 1) > 0 then
    v_re := '(?<![[:alnum:]])(' || array_to_string(v_patterns, '|') || ')(?![[:alnum:]])';
    select string_agg(format(case when col.data_type in ('jsonb', 'json') then 't.%I::text ~* $1' else 't.%I ~* $1' end, col.column_name), ' or ')
      into v_match
      from information_schema.columns col
     where col.table_schema = 'public' and col.table_name = 'interactions' and col.is_generated = 'NEVER'
       and col.data_type in ('text', 'character varying', 'jsonb', 'json');
  end if;
  -- the conversations of the contact's turns and of the turns within reach that name them
  execute format(v_turn_keys, format('t.contact_id = $3 or (%s and (%s))',
      case when v_field then 't.client_id = $2' else '(t.client_id is null or t.client_id = $2)' end, coalesce(v_match, 'false')))
    into v_keys using v_re, c.client_id, p_contact_id;
  foreach v_key in array v_keys loop
    perform pg_advisory_xact_lock(hashtext('mhq.conversation'), v_key);
  end loop;

  -- 1. rows that belong to the contact
  delete from memory_suggestions where contact_id = p_contact_id;
  get diagnostics v_n = row_count;
  v_counts := v_counts || jsonb_build_object('suggestions', v_n);
  delete from facts where contact_id = p_contact_id;
  get diagnostics v_n = row_count;
  v_counts := v_counts || jsonb_build_object('facts', v_n);
  delete from interactions where contact_id = p_contact_id;
  get diagnostics v_n = row_count;
  v_counts := v_counts || jsonb_build_object('interactions', v_n);
  delete from event_log where contact_id = p_contact_id;
  get diagnostics v_n = row_count;
  v_counts := v_counts || jsonb_build_object('events', v_n);
  delete from agent_notes where contact_id = p_contact_id;
  get diagnostics v_n = row_count;
  v_counts := v_counts || jsonb_build_object('notes', v_n);

  -- 2. mentions elsewhere, within the erasure's reach
  if array_length(v_patterns, 1) > 0 then
    -- the agents' people who are the contact leave their vocabularies (locked in key order, as
    -- every writer of agent_people locks them)
    perform 1 from agent_people p join agents a on a.id = p.agent_id
      where p.name ~* v_re and (a.client_id = c.client_id or (not v_field and a.client_id is null))
      order by p.agent_id, lower(p.name) for update of p;
    delete from agent_people p using agents a
     where a.id = p.agent_id and p.name ~* v_re and (a.client_id = c.client_id or (not v_field and a.client_id is null));
    for r in
      select * from (
      select col.table_name,
             array_agg(col.column_name::text order by col.column_name) as columns,
             array_agg(col.data_type::text order by col.column_name) as types,
             exists (
               select 1 from information_schema.columns e
                where e.table_schema = 'public' and e.table_name = col.table_name and e.column_name = 'client_id') as has_client,
             exists (
               select 1 from information_schema.columns e
                where e.table_schema = 'public' and e.table_name = col.table_name and e.column_name = 'agent_id') as has_agent,
             exists (
               select 1 from information_schema.columns e
                where e.table_schema = 'public' and e.table_name = col.table_name and e.column_name = 'embedding') as has_embedding,
             coalesce((
               select string_agg(format('t.%I', a.attname), ', ' order by k.ord)
                 from pg_index ix
                 cross join unnest(ix.indkey) with ordinality as k (attnum, ord)
                 join pg_attribute a on a.attrelid = ix.indrelid and a.attnum = k.attnum
                where ix.indrelid = format('public.%I', col.table_name)::regclass and ix.indisprimary
             ), 't.ctid') as key_order
        from information_schema.columns col
        join information_schema.tables t on t.table_schema = col.table_schema and t.table_name = col.table_name
       where col.table_schema = 'public'
         and t.table_type = 'BASE TABLE'
         and col.data_type in ('text', 'character varying', 'jsonb', 'json')
         and col.is_generated = 'NEVER'
         and col.table_name not in ('contacts', 'clients', 'agents', 'hq_users', 'agent_keys', 'hq_sessions', 'locked_constants', 'agent_people',
                                    'contact_hq_erasures')
       group by col.table_name
      ) tables
       order by (tables.has_client or tables.has_agent) desc, tables.table_name
    loop
      -- the row's client: its own, else its agent's; a table with neither is HQ-wide
      v_owner := case
        when r.has_client then 't.client_id'
        when r.has_agent then '(select a.client_id from agents a where a.id = t.agent_id)'
      end;
      select string_agg(format(case when r.types[k] in ('jsonb', 'json') then 't.%I::text ~* $1' else 't.%I ~* $1' end, r.columns[k]), ' or ')
        into v_match
        from generate_subscripts(r.columns, 1) as k;
      if v_field then
        -- the rows of no client that name the person, left for HQ
        execute format('select count(*)::integer from %I t where %s and (%s)',
            r.table_name, coalesce(v_owner || ' is null', 'true'), v_match)
          into v_n using v_re;
        v_hq_left := v_hq_left + v_n;
      end if;
      if v_owner is null then
        if v_field then
          continue;
        end if;
        v_reach := 'true';
      elsif v_field then
        v_reach := format('%s = $2', v_owner);
      else
        v_reach := format('(%s is null or %s = $2)', v_owner, v_owner);
      end if;
      if r.table_name = 'interactions' then
        -- turns that came to name the person since the conversations were locked
        execute format(v_turn_keys, format('%s and (%s)', v_reach, v_match)) into v_keys using v_re, c.client_id;
        foreach v_key in array v_keys loop
          perform pg_advisory_xact_lock(hashtext('mhq.conversation'), v_key);
        end loop;
      end if;
      execute format('select 1 from %I t where %s and (%s) order by %s for update of t', r.table_name, v_reach, v_match, r.key_order)
        using v_re, c.client_id;
      for i in 1 .. array_length(r.columns, 1) loop
        -- the marker, then (when two values would read alike once redacted) a marker per row
        -- (the row's own: from its primary key, which a dump and restore keep, unlike its place on disk)
        foreach v_marker in array array[quote_literal('[erased]'), format($m$'[erased ' || left(md5(row(%s)::text), 8) || ']'$m$, r.key_order)] loop
          begin
            if r.types[i] in ('jsonb', 'json') then
              execute format(
                'update %I t set %I = regexp_replace(t.%I::text, $1, %s, %L)::%s%s where %s and t.%I::text ~* $1',
                r.table_name, r.columns[i], r.columns[i], v_marker, 'gi', r.types[i],
                case when r.has_embedding then ', embedding = null' else '' end, v_reach, r.columns[i])
                using v_re, c.client_id;
            else
              execute format(
                'update %I t set %I = regexp_replace(t.%I, $1, %s, %L)%s where %s and t.%I ~* $1',
                r.table_name, r.columns[i], r.columns[i], v_marker, 'gi',
                case when r.has_embedding then ', embedding = null' else '' end, v_reach, r.columns[i])
                using v_re, c.client_id;
            end if;
            get diagnostics v_n = row_count;
            exit;
          exception when unique_violation then
            -- nothing of this column was changed: again with a marker per row (a second refusal stands)
            if v_marker <> quote_literal('[erased]') then
              raise;
            end if;
          end;
        end loop;
        v_redacted := v_redacted + v_n;
      end loop;
    end loop;
  end if;
  v_counts := v_counts || jsonb_build_object('redactedRows', v_redacted);

  -- 3. the contact itself, and what is left for HQ
  if v_finishing then
    delete from contact_hq_erasures where contact_id = p_contact_id;
    return v_counts || jsonb_build_object('finishedForHq', true);
  end if;
  update contacts
     set name = null, phone = null, email = null, summary = '', sentiment = null,
         stage = 'opted_out', opt_out = true, opted_out_at = now()
   where id = p_contact_id;
  if v_hq_left > 0 then
    insert into contact_hq_erasures (contact_id, client_id, name, phone, email, hq_rows)
    values (p_contact_id, c.client_id, c.name, c.phone, c.email, v_hq_left);
  end if;
  return v_counts;
end
$$;

revoke all on function mhq.erase_contact(uuid) from public;
grant execute on function mhq.erase_contact(uuid) to mhq_app;
