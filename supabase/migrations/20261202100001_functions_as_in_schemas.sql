-- Written by `npm run db:diff -- functions_as_in_schemas --all` from supabase/schemas/: each function and
-- view below is its schema file as it stands, in full. To change one, change its schema file and generate a
-- new migration; never edit this one.
-- New: mhq.conversation_lock_key, mhq.index_interactions, mhq.knowledge_spelling, mhq.log_retrieval,
--   mhq.own_interactions.
-- Changed: mhq.forget_interaction_people, mhq.index_interaction, mhq.interaction_lexical_candidates,
--   mhq.interaction_neighbour, mhq.interaction_vector_candidates, mhq.interaction_vector_exact,
--   mhq.interaction_vectors_at_most, mhq.interactions_index_added, mhq.interactions_index_trigger,
--   mhq.knowledge_lexical_candidates, mhq.memory_corpus_size, mhq.memory_lexical_candidates,
--   mhq.memory_vector_candidates, mhq.memory_vector_exact, mhq.names_in_text, mhq.person_name,
--   mhq.published_knowledge_vector_candidates, mhq.purge_expired_agent_notes,
--   mhq.record_interaction_people, mhq.record_memory_people, mhq.search_query_terms,
--   public.search_documents, public.search_interactions, public.search_knowledge, public.search_memories.
-- Unchanged, written again (--all): mhq.advance_vocabulary_generation, mhq.agent_id, mhq.agent_kind,
--   mhq.agent_role, mhq.audit, mhq.caller_type, mhq.can_read_agent_log, mhq.can_write_agent_log,
--   mhq.captured_fix_ids, mhq.claims, mhq.client_id, mhq.contact_of_client, mhq.conversation_gap,
--   mhq.copy_contact_client, mhq.current_actor_id, mhq.current_actor_name, mhq.current_actor_type,
--   mhq.embedding_model, mhq.erase_contact, mhq.fold_access_events, mhq.fold_search_stats, mhq.hq_role,
--   mhq.hq_user_id, mhq.in_contact_scope, mhq.index_knowledge, mhq.index_memories,
--   mhq.interaction_fits_contact, mhq.interactions_deleted_trigger, mhq.interactions_redacted_trigger,
--   mhq.is_agent, mhq.is_field_agent, mhq.is_hq, mhq.is_hq_admin, mhq.is_internal_agent, mhq.is_kb_writer,
--   mhq.is_memory_manager, mhq.kb_access, mhq.knowledge_deleted_trigger, mhq.knowledge_index_trigger,
--   mhq.knowledge_keep_version, mhq.knowledge_stamp_author, mhq.memories_deleted_trigger,
--   mhq.memories_index_trigger, mhq.nil_uuid, mhq.record_access, mhq.refresh_interaction_stats,
--   mhq.refuse_isolated_agent_memory, mhq.refuse_opted_out_contact, mhq.stamp_embedding_model,
--   mhq.tags_text, mhq.touch_updated_at, mhq.weighted_terms, mhq.writes_canonical_memory.
--
-- Could not be decided from the text alone (check these by hand):
-- - mhq.interaction_vector_candidates: its newest definition (20261125110000_local_vectors_own_width.sql)
--   is built at run time by a DO block, so it could not be compared; it is written again in full (if what
--   it returns differs from that definition, add `drop function mhq.interaction_vector_candidates(vector,
--   text, uuid, uuid, integer);` before it by hand).
-- - mhq.memory_vector_candidates: its newest definition (20261125110000_local_vectors_own_width.sql) is
--   built at run time by a DO block, so it could not be compared; it is written again in full (if what it
--   returns differs from that definition, add `drop function mhq.memory_vector_candidates(vector, text,
--   text, uuid, timestamp with time zone, integer);` before it by hand).
-- - mhq.published_knowledge_vector_candidates: its newest definition
--   (20261125110000_local_vectors_own_width.sql) is built at run time by a DO block, so it could not be
--   compared; it is written again in full (if what it returns differs from that definition, add `drop
--   function mhq.published_knowledge_vector_candidates(vector, text, integer);` before it by hand).
-- - public.search_knowledge: its newest definition (20261127100000_retrieval_candidate_lookup.sql) is
--   built at run time by a DO block, so it could not be compared; it is written again in full (if what it
--   returns differs from that definition, add `drop function public.search_knowledge(text, vector, text,
--   integer, text, text[], boolean, double precision, double precision, integer);` before it by hand).

-- pgvector's settings (hnsw.*) exist in a session only once its library is loaded, and until then only a
-- superuser may put one on a function: using the type loads the library.
do $$ begin perform '[1]'::vector; end $$;

-- supabase/schemas/functions/mhq.advance_vocabulary_generation.sql
create or replace function mhq.advance_vocabulary_generation() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  perform nextval('mhq.vocabulary_generation');
  return null;
end
$$;

revoke all on function mhq.advance_vocabulary_generation() from public;

-- supabase/schemas/functions/mhq.claims.sql
create or replace function mhq.claims() returns jsonb
language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
$$;

-- supabase/schemas/functions/mhq.agent_id.sql
create or replace function mhq.agent_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'agent_id', '')::uuid $$;

-- supabase/schemas/functions/mhq.agent_kind.sql
create or replace function mhq.agent_kind() returns text
language sql stable as $$ select mhq.claims() ->> 'agent_kind' $$;

-- supabase/schemas/functions/mhq.agent_role.sql
create or replace function mhq.agent_role() returns text
language sql stable as $$ select mhq.claims() ->> 'agent_role' $$;

-- supabase/schemas/functions/mhq.audit.sql
-- Records an audit entry for the current caller, inside the caller's own transaction, so the entry
-- commits or rolls back together with the change it describes. The actor comes from the claims,
-- never from the arguments, so a caller cannot write entries in someone else's name.
create or replace function mhq.audit(
  p_action text,
  p_target_type text default '',
  p_target_id text default null,
  p_details jsonb default '{}',
  p_client_id uuid default null
) returns void
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  c jsonb := mhq.claims();
begin
  insert into audit_log (actor_type, actor_id, actor_name, action, target_type, target_id, client_id, details)
  values (
    case
      when c ->> 'caller_type' = 'agent' then 'agent'
      when c ->> 'caller_type' = 'hq' and nullif(c ->> 'hq_user_id', '') is not null then 'hq_user'
      when c ->> 'caller_type' = 'hq' then 'admin_key'
      else 'system'
    end,
    coalesce(nullif(c ->> 'agent_id', ''), nullif(c ->> 'hq_user_id', ''))::uuid,
    coalesce(c ->> 'name', ''),
    p_action, coalesce(p_target_type, ''), p_target_id,
    coalesce(p_client_id, nullif(c ->> 'client_id', '')::uuid),
    coalesce(p_details, '{}')
  );
end
$$;

revoke all on function mhq.audit(text, text, text, jsonb, uuid) from public;
grant execute on function mhq.audit(text, text, text, jsonb, uuid) to mhq_app;

-- supabase/schemas/functions/mhq.caller_type.sql
create or replace function mhq.caller_type() returns text
language sql stable as $$ select mhq.claims() ->> 'caller_type' $$;

-- supabase/schemas/functions/mhq.client_id.sql
create or replace function mhq.client_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'client_id', '')::uuid $$;

-- supabase/schemas/functions/mhq.is_agent.sql
-- An agent with any memory access at all: isolated agents (code, deploy, migrations) have none.
create or replace function mhq.is_agent() returns boolean
language sql stable as $$
  select coalesce(mhq.caller_type() = 'agent' and mhq.agent_role() <> 'isolated', false)
$$;

-- supabase/schemas/functions/mhq.is_field_agent.sql
create or replace function mhq.is_field_agent() returns boolean
language sql stable as $$ select mhq.is_agent() and coalesce(mhq.agent_kind() = 'field', false) $$;

-- supabase/schemas/functions/mhq.hq_role.sql
create or replace function mhq.hq_role() returns text
language sql stable as $$ select case when mhq.caller_type() = 'hq' then mhq.claims() ->> 'hq_role' end $$;

-- supabase/schemas/functions/mhq.is_hq.sql
create or replace function mhq.is_hq() returns boolean
language sql stable as $$ select coalesce(mhq.hq_role() in ('admin', 'curator', 'viewer'), false) $$;

-- supabase/schemas/functions/mhq.is_internal_agent.sql
create or replace function mhq.is_internal_agent() returns boolean
language sql stable as $$ select mhq.is_agent() and coalesce(mhq.agent_kind() = 'internal', false) $$;

-- supabase/schemas/functions/mhq.in_contact_scope.sql
-- Whether the caller may see rows of a contact belonging to `p_client_id` (null: HQ's own).
create or replace function mhq.in_contact_scope(p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_hq()
      or mhq.is_internal_agent()
      or (mhq.is_field_agent() and p_client_id is not null and p_client_id = mhq.client_id())
$$;

-- supabase/schemas/functions/mhq.can_read_agent_log.sql
-- Whether the caller may read a row an agent wrote: its author, or a manager/orchestrator in scope.
create or replace function mhq.can_read_agent_log(p_agent_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_hq()
      or (mhq.is_agent() and p_agent_id = mhq.agent_id())
      or (mhq.agent_role() in ('manager', 'orchestrator') and mhq.in_contact_scope(p_client_id) and mhq.is_agent())
$$;

-- supabase/schemas/functions/mhq.can_write_agent_log.sql
-- Whether an agent may write a row in its own name for `p_client_id`.
create or replace function mhq.can_write_agent_log(p_agent_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select mhq.is_agent()
     and p_agent_id = mhq.agent_id()
     and (mhq.is_internal_agent() or (p_client_id is not null and p_client_id = mhq.client_id()))
$$;

-- supabase/schemas/functions/mhq.captured_fix_ids.sql
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

-- supabase/schemas/functions/mhq.contact_of_client.sql
-- Whether `p_contact_id` is a contact the caller can see (contacts_select applies: this function is
-- not security definer) and belongs to `p_client_id` (both may be HQ's own: null).
create or replace function mhq.contact_of_client(p_contact_id uuid, p_client_id uuid) returns boolean
language sql stable as $$
  select exists (select 1 from contacts c where c.id = p_contact_id and c.client_id is not distinct from p_client_id)
$$;

-- supabase/schemas/functions/mhq.conversation_gap.sql
create or replace function mhq.conversation_gap() returns interval
language sql immutable
as $$ select interval '6 hours' $$;

-- supabase/schemas/functions/mhq.conversation_lock_key.sql
-- The advisory-lock key of a turn's conversation: the caller's thread when it named one, else the
-- inferred conversation's agent, channel, contact and client. Writes to one conversation take turns
-- on it (pg_advisory_xact_lock(hashtext('mhq.conversation'), key)), so two turns written at once see
-- each other; other conversations are never held up.
create or replace function mhq.conversation_lock_key(
  p_agent_id uuid, p_channel text, p_contact_id uuid, p_client_id uuid, p_conversation_key text
) returns integer
language sql immutable
as $$
  select case
    when p_conversation_key is not null then hashtext(p_agent_id::text || ':thread:' || p_conversation_key)
    else hashtext(p_agent_id::text || ':' || p_channel || ':' || coalesce(p_contact_id::text, '') || ':' || coalesce(p_client_id::text, ''))
  end
$$;

-- supabase/schemas/functions/mhq.copy_contact_client.sql
-- Rows that hang off a contact carry its client_id (RLS and listings read it); this copies it from
-- the contact so a caller can never file a row under another client. Security definer: it must
-- see the contact even when the caller cannot (the policies then refuse the row).
create or replace function mhq.copy_contact_client() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  select c.client_id into new.client_id from contacts c where c.id = new.contact_id;
  return new;
end
$$;

-- supabase/schemas/functions/mhq.hq_user_id.sql
create or replace function mhq.hq_user_id() returns uuid
language sql stable as $$ select nullif(mhq.claims() ->> 'hq_user_id', '')::uuid $$;

-- supabase/schemas/functions/mhq.current_actor_id.sql
create or replace function mhq.current_actor_id() returns uuid
language sql stable as $$
  select case when mhq.caller_type() = 'agent' then mhq.agent_id() else mhq.hq_user_id() end
$$;

-- supabase/schemas/functions/mhq.current_actor_name.sql
create or replace function mhq.current_actor_name() returns text
language sql stable as $$ select coalesce(mhq.claims() ->> 'name', '') $$;

-- supabase/schemas/functions/mhq.current_actor_type.sql
-- The caller as recorded on rows it writes (same mapping as mhq.audit), taken from the claims so a
-- caller cannot write rows in someone else's name.
create or replace function mhq.current_actor_type() returns text
language sql stable as $$
  select case
    when mhq.caller_type() = 'agent' then 'agent'
    when mhq.caller_type() = 'hq' and mhq.hq_user_id() is not null then 'hq_user'
    when mhq.caller_type() = 'hq' then 'admin_key'
    else 'system'
  end
$$;

-- supabase/schemas/functions/mhq.embedding_model.sql
-- The vector halves of the existing searches keep their signatures and compare only vectors of the
-- transaction's model (mhq.embedding_model); with no model set they compare none.
create or replace function mhq.embedding_model() returns text
language sql stable
as $$ select nullif(current_setting('mhq.embedding_model', true), '') $$;

grant execute on function mhq.embedding_model() to mhq_app;

-- supabase/schemas/functions/mhq.erase_contact.sql
-- Opt-out erasure (seed 002: "Delete data when user requests opt-out").
--
-- mhq.erase_contact(id) runs as the owner because no caller role may delete interactions, facts or
-- suggestions, nor touch the audit log; it checks the caller itself (manager agents and HQ admins,
-- for contacts in their scope). In one transaction it:
--   1. deletes the contact's suggestions, facts, interactions (their text and embeddings with them),
--      events and notes;
--   2. redacts the contact's phone number (in any common format), email and full name (two words
--      or more; a single first name is too common to scrub safely) wherever they still appear in a
--      text or JSON column of the public schema — other contacts' facts, unlinked interactions,
--      agent memories and documents, the audit log — replacing them with "[erased]" and clearing
--      the embedding of any row it changed, so no vector still encodes the erased text;
--   3. blanks the contact's name, phone, email and summary and marks it opted out.
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
  v_has_embedding boolean;
begin
  if not mhq.writes_canonical_memory() then
    raise exception 'only memory managers and HQ admins erase contacts' using errcode = '42501';
  end if;
  select * into c from contacts where id = p_contact_id for update;
  if not found or not mhq.in_contact_scope(c.client_id) then
    raise exception 'contact not found' using errcode = 'P0002';
  end if;
  if c.opt_out then
    return jsonb_build_object('alreadyOptedOut', true);
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

  -- 2. mentions elsewhere
  if array_length(v_patterns, 1) > 0 then
    v_re := '(?<![[:alnum:]])(' || array_to_string(v_patterns, '|') || ')(?![[:alnum:]])';
    for r in
      select col.table_name, col.column_name, col.data_type
        from information_schema.columns col
        join information_schema.tables t on t.table_schema = col.table_schema and t.table_name = col.table_name
       where col.table_schema = 'public'
         and t.table_type = 'BASE TABLE'
         and col.data_type in ('text', 'character varying', 'jsonb', 'json')
         and col.is_generated = 'NEVER'
         and col.table_name not in ('contacts', 'clients', 'agents', 'hq_users', 'agent_keys', 'hq_sessions', 'locked_constants')
       order by col.table_name, col.column_name
    loop
      select exists (
        select 1 from information_schema.columns e
         where e.table_schema = 'public' and e.table_name = r.table_name and e.column_name = 'embedding'
      ) into v_has_embedding;
      if r.data_type in ('jsonb', 'json') then
        execute format(
          'update %I set %I = regexp_replace(%I::text, $1, %L, %L)::%s%s where %I::text ~* $1',
          r.table_name, r.column_name, r.column_name, '[erased]', 'gi', r.data_type,
          case when v_has_embedding then ', embedding = null' else '' end, r.column_name)
          using v_re;
      else
        execute format(
          'update %I set %I = regexp_replace(%I, $1, %L, %L)%s where %I ~* $1',
          r.table_name, r.column_name, r.column_name, '[erased]', 'gi',
          case when v_has_embedding then ', embedding = null' else '' end, r.column_name)
          using v_re;
      end if;
      get diagnostics v_n = row_count;
      v_redacted := v_redacted + v_n;
    end loop;
  end if;
  v_counts := v_counts || jsonb_build_object('redactedRows', v_redacted);

  -- 3. the contact itself
  update contacts
     set name = null, phone = null, email = null, summary = '', sentiment = null,
         stage = 'opted_out', opt_out = true, opted_out_at = now()
   where id = p_contact_id;
  return v_counts;
end
$$;

revoke all on function mhq.erase_contact(uuid) from public;
grant execute on function mhq.erase_contact(uuid) to mhq_app;

-- supabase/schemas/functions/mhq.fold_access_events.sql
-- Folds at most p_limit pending events into the counters; returns how many it folded. Safe to run
-- from several connections at once: `skip locked` hands each caller different events, and the
-- counted rows are locked in id order (memories, then knowledge entries) so two folds — or a fold
-- and a request updating several of the same rows in the same order — never deadlock.
create or replace function mhq.fold_access_events(p_limit integer)
returns integer
language plpgsql volatile set search_path = public, pg_temp as $$
declare
  folded integer;
  m_ids uuid[]; m_n integer[]; m_at timestamptz[];
  k_ids uuid[]; k_n integer[]; k_at timestamptz[];
begin
  with batch as (
    select e.id from access_events e order by e.id limit p_limit for update skip locked
  ), gone as (
    delete from access_events e using batch b where e.id = b.id returning e.kind, e.item_id, e.at
  ), totals as (
    select g.kind, g.item_id, count(*)::integer as n, max(g.at) as at from gone g group by g.kind, g.item_id
  )
  select coalesce(sum(t.n), 0)::integer,
         array_agg(t.item_id order by t.item_id) filter (where t.kind = 'memory'),
         array_agg(t.n order by t.item_id) filter (where t.kind = 'memory'),
         array_agg(t.at order by t.item_id) filter (where t.kind = 'memory'),
         array_agg(t.item_id order by t.item_id) filter (where t.kind = 'knowledge'),
         array_agg(t.n order by t.item_id) filter (where t.kind = 'knowledge'),
         array_agg(t.at order by t.item_id) filter (where t.kind = 'knowledge')
    into folded, m_ids, m_n, m_at, k_ids, k_n, k_at
    from totals t;

  if m_ids is not null then
    perform 1 from memories m where m.id = any (m_ids) order by m.id for no key update;
    update memories m
       set accessed_count = m.accessed_count + t.n, last_accessed_at = greatest(m.last_accessed_at, t.at)
      from unnest(m_ids, m_n, m_at) as t (id, n, at)
     where m.id = t.id;
  end if;
  if k_ids is not null then
    perform 1 from knowledge_entries k where k.id = any (k_ids) order by k.id for no key update;
    update knowledge_entries k
       set accessed_count = k.accessed_count + t.n, last_accessed_at = greatest(k.last_accessed_at, t.at)
      from unnest(k_ids, k_n, k_at) as t (id, n, at)
     where k.id = t.id;
  end if;
  return folded;
end
$$;

revoke all on function mhq.fold_access_events(integer) from public;

-- supabase/schemas/functions/mhq.fold_search_stats.sql
-- Folds the log into the statistics (a job: lib/retrieval/term-stats.ts). One fold at a time:
-- whoever does not get the lock skips (the next fold takes what is left). Rows of transactions
-- still open are not visible here and stay for the next fold.
create or replace function mhq.fold_search_stats()
returns integer
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  folded integer;
begin
  if not pg_try_advisory_xact_lock(hashtext('mhq.search_stats')) then
    return 0;
  end if;
  with gone as (
    delete from search_stats_log returning corpus, corpus_id, lexeme, df_delta, len_delta
  )
  insert into search_term_stats as s (corpus, corpus_id, lexeme, df, total_len)
  select g.corpus, g.corpus_id, g.lexeme, sum(g.df_delta), sum(g.len_delta)
    from gone g
   group by g.corpus, g.corpus_id, g.lexeme
   order by g.corpus, g.corpus_id, g.lexeme
  on conflict (corpus, corpus_id, lexeme) do update set df = s.df + excluded.df, total_len = s.total_len + excluded.total_len;
  get diagnostics folded = row_count;
  delete from search_term_stats s where s.df <= 0 and s.lexeme <> '';
  return folded;
end
$$;

revoke all on function mhq.fold_search_stats() from public;
grant execute on function mhq.fold_search_stats() to mhq_app;

-- supabase/schemas/functions/mhq.forget_interaction_people.sql
-- Deleted turns (opt-out erasure, an agent's removal), once per statement: a speaker the agent no
-- longer has any turn of leaves its people, so an erased contact's name stops being a trigger word.
-- Rows are locked in id order.
create or replace function mhq.forget_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  delete from agent_people
   where id in (
     select p.id
       from agent_people p
       join (select distinct g.agent_id, lower(mhq.person_name(g.speaker)) as n
               from gone g where mhq.person_name(g.speaker) is not null) d
         on p.agent_id = d.agent_id and lower(p.name) = d.n
      where p.source = 'speaker'
        and not exists (select 1 from interactions i
                         where i.agent_id = d.agent_id and lower(mhq.person_name(i.speaker)) = d.n)
      order by p.id
        for update of p);
  return null;
end
$$;

revoke all on function mhq.forget_interaction_people() from public;

-- supabase/schemas/functions/mhq.index_interactions.sql
-- (Re)writes the postings and document rows of these interactions, all at once: each one's BM25F
-- document is its own text (weight 1), the two turns before it (0.5, 0.25), the two after it (0.3,
-- 0.15; not counted in its length) and its day (0.5). Each text involved is analysed once, however
-- many documents it is part of (a batch of turns of one conversation shares most of them).
-- Conversation labels follow in conversation order: a turn takes the label of the turn before it
-- unless that label started more than 24 hours earlier; a turn whose label changes (an earlier turn
-- arrived late, or bridged two runs) carries the rest of its old run with it. The document rows are
-- locked first, so two writers of the same rows take turns, each reading the neighbours anew.
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

  with t as (
    select u.id, u.prev_id, u.prev2_id, u.next_id, u.next2_id
      from unnest(v_ids, v_prev, v_prev2, v_next, v_next2) as u (id, prev_id, prev2_id, next_id, next2_id)
  ),
  -- each text's lexemes, once
  own as (
    select x.id, w.lexeme, coalesce(array_length(w.positions, 1), 1)::float8 as n
      from interactions x, unnest(to_tsvector('english', x.content)) w
     where x.id in (select t.id from t union select t.prev_id from t union select t.prev2_id from t
                    union select t.next_id from t union select t.next2_id from t)
  ),
  terms as (
    select t.id, o.lexeme, f.w * o.n as tf, f.counted
      from t
     cross join lateral (values (t.id, 1.0::float8, true), (t.prev_id, 0.5::float8, true), (t.prev2_id, 0.25::float8, true),
                                (t.next_id, 0.3::float8, false), (t.next2_id, 0.15::float8, false)) as f (src, w, counted)
      join own o on o.id = f.src
    union all
    select t.id, w.lexeme, 0.5 * coalesce(array_length(w.positions, 1), 1), true
      from t join interactions x on x.id = t.id,
           unnest(to_tsvector('english', to_char(x.occurred_at at time zone 'UTC', 'FMDD FMMonth YYYY'))) w
  ),
  docs as (
    select g.id, g.lexeme, sum(g.tf)::real as tf, (sum(sum(g.tf) filter (where g.counted)) over (partition by g.id))::real as len
      from terms g group by g.id, g.lexeme
  ),
  stale as (
    delete from interaction_postings p
     where p.interaction_id in (select t.id from t)
       and not exists (select 1 from docs c where c.id = p.interaction_id and c.lexeme = p.lexeme)
  ),
  written as (
    insert into interaction_postings as p (interaction_id, lexeme, agent_id, client_id, tf, len)
    select c.id, c.lexeme, x.agent_id, x.client_id, c.tf, c.len
      from docs c join interactions x on x.id = c.id
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
   where d.interaction_id = t.id;

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

-- supabase/schemas/functions/mhq.index_interaction.sql
-- (Re)writes one interaction's postings and document row (see mhq.index_interactions).
create or replace function mhq.index_interaction(p_id uuid)
returns void
language sql volatile security definer
set search_path = public, pg_temp
as $$
  select mhq.index_interactions(array[p_id])
$$;

revoke all on function mhq.index_interaction(uuid) from public;

-- supabase/schemas/functions/mhq.index_knowledge.sql
-- (Re)writes the postings of these entries, and logs what that changes in the statistics of the
-- knowledge base (all its entries: curators search archived ones too; agents' searches pick among
-- the published postings only).
create or replace function mhq.index_knowledge(ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
begin
  -- two statements: the new postings may hold the keys of the old ones
  with gone as (
    delete from knowledge_postings p where p.entry_id = any (ids)
    returning p.entry_id, p.lexeme, p.published, p.len
  ),
  deltas as (
    select g.lexeme, -1 as d, 0::float8 as l from gone g
    union all select '', -1, -max(g.len) from gone g group by g.entry_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.lexeme;

  with fresh as (
    insert into knowledge_postings (entry_id, lexeme, published, tf, len)
    select k.id, t.lexeme, k.status = 'published', t.tf, sum(t.tf) over (partition by k.id)
      from knowledge_entries k cross join lateral mhq.weighted_terms(k.fts) t
     where k.id = any (ids)
    returning entry_id, lexeme, published, len
  ),
  deltas as (
    select f.lexeme, 1 as d, 0::float8 as l from fresh f
    union all select '', 1, max(f.len) from fresh f group by f.entry_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.lexeme;
end
$$;

revoke all on function mhq.index_knowledge(uuid[]) from public;

-- supabase/schemas/functions/mhq.index_memories.sql
-- The same for memories: postings for the searchable ones, statistics per corpus.
create or replace function mhq.index_memories(ids uuid[])
returns void
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
begin
  -- two statements: the new postings may hold the keys of the old ones
  with gone as (
    delete from memory_postings p where p.memory_id = any (ids)
    returning p.memory_id, p.corpus_id, p.lexeme, p.len
  ),
  deltas as (
    select g.corpus_id, g.lexeme, -1 as d, 0::float8 as l from gone g
    union all select g.corpus_id, '', -1, -max(g.len) from gone g group by g.memory_id, g.corpus_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.corpus_id, x.lexeme;

  with fresh as (
    insert into memory_postings (memory_id, lexeme, corpus_id, agent_id, scope, tf, len)
    select m.id, t.lexeme, case when m.scope = 'team' then mhq.nil_uuid() else m.agent_id end, m.agent_id, m.scope,
           t.tf, sum(t.tf) over (partition by m.id)
      from memories m cross join lateral mhq.weighted_terms(m.fts) t
     where m.id = any (ids) and (m.status = 'active' or (m.scope = 'agent' and m.status = 'resolved'))
    returning memory_id, corpus_id, lexeme, len
  ),
  deltas as (
    select f.corpus_id, f.lexeme, 1 as d, 0::float8 as l from fresh f
    union all select f.corpus_id, '', 1, max(f.len) from fresh f group by f.memory_id, f.corpus_id
  )
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l) from deltas x group by x.corpus_id, x.lexeme;
end
$$;

revoke all on function mhq.index_memories(uuid[]) from public;

-- supabase/schemas/functions/mhq.interaction_fits_contact.sql
-- Whether an interaction may be cited as a suggestion's source: same client as the contact, and not
-- logged against another contact. Security definer because specialists write interactions but may
-- not read them back (interactions_select); it reveals only this yes/no, for contacts in scope.
create or replace function mhq.interaction_fits_contact(p_interaction_id uuid, p_contact_id uuid) returns boolean
language sql stable security definer set search_path = public, pg_temp as $$
  select exists (
    select 1
      from interactions i
      join contacts c on c.id = p_contact_id
     where i.id = p_interaction_id
       and mhq.in_contact_scope(c.client_id)
       and (i.contact_id = c.id or (i.contact_id is null and i.client_id is not distinct from c.client_id))
  )
$$;

revoke all on function mhq.interaction_fits_contact(uuid, uuid) from public;
grant execute on function mhq.interaction_fits_contact(uuid, uuid) to mhq_app;

-- supabase/schemas/functions/mhq.interaction_lexical_candidates.sql
-- Conversations: BM25F candidates with each turn's context (see ../README.md, "Conversations").
create or replace function mhq.interaction_lexical_candidates(query_text text, agent_filter uuid, client_filter uuid, max_rows int)
returns table (id uuid, score float8, coverage float8, conversation_coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  k1 constant float8 := 1.2;
  b constant float8 := 0.75;
  budget_rows constant int := 1500;
  candidate_rows constant int := 100;
  by_agent boolean;
  kind text;
  scope uuid;
  n float8;
  total_len float8;
  avg_len float8;
  lexemes text[];
  dfs float8[];
  idfs float8[];
  total_idf float8;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  rare_cap int[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  budget float8 := 0;
begin
  if coalesce(query_text, '') = '' or (agent_filter is null and client_filter is null) then
    return;
  end if;
  if mhq.is_hq() or (mhq.is_internal_agent() and mhq.agent_role() in ('manager', 'orchestrator')) then
    null;
  elsif mhq.is_field_agent() and mhq.agent_role() in ('manager', 'orchestrator') and mhq.client_id() is not null then
    if client_filter is not null and client_filter <> mhq.client_id() then
      return;
    end if;
    client_filter := mhq.client_id();
  else
    return;
  end if;
  by_agent := agent_filter is not null;
  if by_agent then
    kind := 'agent'; scope := agent_filter;
  else
    kind := 'client'; scope := client_filter;
  end if;

  select array_agg(distinct t.lexeme) into lexemes from unnest(to_tsvector('english', query_text)) t;
  if lexemes is null then
    return;
  end if;

  select s.n, s.total_len into n, total_len from interaction_corpus_stats s where s.scope_kind = kind and s.scope_id = scope;
  if not found then
    select count(*), coalesce(sum(d.len), 0) into n, total_len
      from interaction_search_docs d
     where (by_agent and d.agent_id = scope) or (not by_agent and d.client_id = scope);
  end if;
  if n = 0 then
    return;
  end if;
  avg_len := greatest(total_len / n, 1);

  -- document frequencies: from the statistics, or counted for lexemes they do not know yet
  select array_agg(x.l order by x.d, x.l), array_agg(x.d order by x.d, x.l) into lexemes, dfs
    from (
      select u.l, coalesce(
        (select s.df from interaction_term_stats s where s.scope_kind = kind and s.scope_id = scope and s.lexeme = u.l),
        case when by_agent
             then (select count(*) from (select 1 from interaction_postings p where p.agent_id = scope and p.lexeme = u.l limit 1500) c)
             else (select count(*) from (select 1 from interaction_postings p where p.client_id = scope and p.lexeme = u.l limit 1500) c)
        end
      )::float8 as d
        from unnest(lexemes) as u (l)
    ) x;
  select array_agg(ln(1 + (greatest(n, d) - d + 0.5) / (d + 0.5)) order by o) into idfs
    from unnest(dfs) with ordinality as u (d, o);
  select sum(x) into total_idf from unnest(idfs) x;

  -- the rarest lexemes, together at most `budget_rows` postings, find the candidates; a lexeme
  -- that alone holds more is read in impact order, only its strongest `budget_rows` rows
  for i in 1 .. array_length(lexemes, 1) loop
    continue when dfs[i] = 0;
    if budget = 0 or budget + dfs[i] <= budget_rows then
      rare := rare || lexemes[i];
      rare_idf := rare_idf || idfs[i];
      rare_cap := rare_cap || least(dfs[i], budget_rows)::int;
      budget := budget + least(dfs[i], budget_rows);
    else
      common := common || lexemes[i];
      common_idf := common_idf || idfs[i];
    end if;
  end loop;
  if budget = 0 then
    return;
  end if;

  return query
    with rare_hits as materialized (
           select p.interaction_id as id, p.lexeme, q.idf,
                  q.idf * p.tf * (k1 + 1) / (p.tf + k1 * (1 - b + b * p.len / avg_len)) as part
             from unnest(rare, rare_idf, rare_cap) as q (lexeme, idf, cap)
             cross join lateral (
               -- each through its impact-ordered index; the other branch is cut off before it runs
               (select x.interaction_id, x.lexeme, x.tf, x.len from interaction_postings x
                 where by_agent and x.agent_id = scope and x.lexeme = q.lexeme and (client_filter is null or x.client_id = client_filter)
                 order by x.tf / greatest(x.len, 1) desc
                 limit q.cap)
               union all
               (select x.interaction_id, x.lexeme, x.tf, x.len from interaction_postings x
                 where not by_agent and x.client_id = scope and x.lexeme = q.lexeme
                 order by x.tf / greatest(x.len, 1) desc
                 limit q.cap)) p),
         phase1 as materialized (
           select f.id, d.conversation_id
             from (select h.id from rare_hits h group by h.id order by sum(h.part) desc limit candidate_rows) f
             left join interaction_search_docs d on d.interaction_id = f.id),
         matches as materialized (
           select h.id, h.lexeme, h.idf, h.part, f.conversation_id from rare_hits h join phase1 f on f.id = h.id
           union all
           select p.interaction_id, p.lexeme, cq.idf,
                  cq.idf * p.tf * (k1 + 1) / (p.tf + k1 * (1 - b + b * p.len / avg_len)), f.conversation_id
             from phase1 f join interaction_postings p on p.interaction_id = f.id and p.lexeme = any(common)
             join unnest(common, common_idf) as cq (lexeme, idf) on cq.lexeme = p.lexeme),
         scored as (
           select m.id, sum(m.part) as score, sum(m.idf) as matched, min(m.conversation_id::text)::uuid as conversation_id
             from matches m group by m.id),
         conversations as (
           select c.conversation_id, sum(c.idf) as matched
             from (select distinct m.conversation_id, m.lexeme, m.idf from matches m where m.conversation_id is not null) c
            group by c.conversation_id)
    select s.id, s.score::float8, (s.matched / total_idf)::float8, (coalesce(c.matched, s.matched) / total_idf)::float8
      from scored s left join conversations c on c.conversation_id = s.conversation_id
     order by 2 desc, s.id
     limit max_rows;
end
$$;

revoke all on function mhq.interaction_lexical_candidates(text, uuid, uuid, integer) from public;
grant execute on function mhq.interaction_lexical_candidates(text, uuid, uuid, integer) to mhq_app;

-- supabase/schemas/functions/mhq.interaction_neighbour.sql
-- The turn before (step -1) or after (step 1) an interaction in its conversation, in (occurred_at,
-- seq) order: the time it happened, then the order it was recorded in. A turn of the caller's own
-- thread (conversation_key) has its neighbours in that thread, at any distance in time; any other
-- turn in the conversation inferred from agent, channel, contact and client, each turn at most
-- mhq.conversation_gap() from the one before. PL/pgSQL, so each branch keeps its own cached plan
-- down its index (interactions_thread_idx, interactions_conversation_idx).
create or replace function mhq.interaction_neighbour(p_id uuid, step int)
returns uuid
language plpgsql stable
set search_path = public, pg_temp
as $$
declare
  x record;
  found_id uuid;
begin
  select i.id, i.agent_id, i.channel, coalesce(i.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) as contact,
         coalesce(i.client_id, '00000000-0000-0000-0000-000000000000'::uuid) as client, i.occurred_at, i.seq,
         i.conversation_key
    into x from interactions i where i.id = p_id;
  if not found then
    return null;
  end if;
  if x.conversation_key is not null then
    if step < 0 then
      select p.id into found_id from interactions p
       where p.agent_id = x.agent_id and p.conversation_key = x.conversation_key
         and (p.occurred_at, p.seq) < (x.occurred_at, x.seq)
       order by p.occurred_at desc, p.seq desc
       limit 1;
    else
      select p.id into found_id from interactions p
       where p.agent_id = x.agent_id and p.conversation_key = x.conversation_key
         and (p.occurred_at, p.seq) > (x.occurred_at, x.seq)
       order by p.occurred_at, p.seq
       limit 1;
    end if;
  elsif step < 0 then
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel and p.conversation_key is null
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.seq) < (x.occurred_at, x.seq) and p.occurred_at >= x.occurred_at - mhq.conversation_gap()
     order by p.occurred_at desc, p.seq desc
     limit 1;
  else
    select p.id into found_id from interactions p
     where p.agent_id = x.agent_id and p.channel = x.channel and p.conversation_key is null
       and coalesce(p.contact_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.contact
       and coalesce(p.client_id, '00000000-0000-0000-0000-000000000000'::uuid) = x.client
       and (p.occurred_at, p.seq) > (x.occurred_at, x.seq) and p.occurred_at <= x.occurred_at + mhq.conversation_gap()
     order by p.occurred_at, p.seq
     limit 1;
  end if;
  return found_id;
end
$$;

-- supabase/schemas/functions/mhq.interaction_vector_candidates.sql
-- Nearest vectors of one model: a static statement per stored width, each walking its partial HNSW
-- index, so each keeps its plan; the planner settings force the walk (see ../README.md, "Plans").
create or replace function mhq.interaction_vector_candidates(
  query_embedding vector, query_model text, agent_filter uuid, client_filter uuid, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
set hnsw.iterative_scan = relaxed_order
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  perform set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  if vector_dims(query_embedding) = 101 then
    return query
    select i.id, i.embedding::vector(101) <=> query_embedding::vector(101)
      from interactions i
     where vector_dims(i.embedding) = 101 and i.embedding_model = query_model
       and (agent_filter is null or i.agent_id = agent_filter)
       and (client_filter is null or i.client_id = client_filter)
     order by i.embedding::vector(101) <=> query_embedding::vector(101)
     limit max_rows;
  else
    return query
    select i.id, i.embedding::vector(1536) <=> query_embedding::vector(1536)
      from interactions i
     where vector_dims(i.embedding) = 1536 and i.embedding_model = query_model
       and (agent_filter is null or i.agent_id = agent_filter)
       and (client_filter is null or i.client_id = client_filter)
     order by i.embedding::vector(1536) <=> query_embedding::vector(1536)
     limit max_rows;
  end if;
end
$$;

revoke all on function mhq.interaction_vector_candidates(vector, text, uuid, uuid, integer) from public;
grant execute on function mhq.interaction_vector_candidates(vector, text, uuid, uuid, integer) to mhq_app;

-- supabase/schemas/functions/mhq.interaction_vector_exact.sql
create or replace function mhq.interaction_vector_exact(
  query_embedding vector(1536), query_model text, agent_filter uuid, client_filter uuid, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql stable security invoker
set plan_cache_mode = auto
as $$
#variable_conflict use_column
begin
  return query
  select u.id, u.distance from (
    select i.id, i.embedding <=> query_embedding as distance
      from interactions i
     where agent_filter is not null and i.agent_id = agent_filter
       and (client_filter is null or i.client_id = client_filter) and i.embedding is not null
       and i.embedding_model = query_model
    union all
    select i.id, i.embedding <=> query_embedding
      from interactions i
     where agent_filter is null and i.client_id = client_filter and i.embedding is not null
       and i.embedding_model = query_model
  ) u
  order by u.distance + 0
  limit max_rows;
end
$$;

revoke all on function mhq.interaction_vector_exact(vector, text, uuid, uuid, integer) from public;
grant execute on function mhq.interaction_vector_exact(vector, text, uuid, uuid, integer) to mhq_app;

-- supabase/schemas/functions/mhq.interaction_vectors_at_most.sql
-- Whether one agent's or one client's conversations hold at most `cap` vectors: read from the
-- conversations' statistics when they exist (they trail writes by a moment, which only moves the
-- choice between an exact ranking and the HNSW walk), counted up to cap + 1 otherwise.
create or replace function mhq.interaction_vectors_at_most(cap int, agent_filter uuid, client_filter uuid)
returns boolean
language plpgsql stable security invoker
set plan_cache_mode = auto
as $$
declare
  known float8;
  small boolean;
begin
  select s.n into known from interaction_corpus_stats s
   where (agent_filter is not null and s.scope_kind = 'agent' and s.scope_id = agent_filter)
      or (agent_filter is null and s.scope_kind = 'client' and s.scope_id = client_filter);
  if known is not null then
    return known <= cap;
  end if;
  select count(*) <= cap into small from (
    select 1 from interactions i
     where agent_filter is not null and i.agent_id = agent_filter
       and (client_filter is null or i.client_id = client_filter) and i.embedding is not null
    union all
    select 1 from interactions i
     where agent_filter is null and i.client_id = client_filter and i.embedding is not null
    limit cap + 1
  ) f;
  return small;
end
$$;

revoke all on function mhq.interaction_vectors_at_most(integer, uuid, uuid) from public;
grant execute on function mhq.interaction_vectors_at_most(integer, uuid, uuid) to mhq_app;

-- supabase/schemas/functions/mhq.interactions_deleted_trigger.sql
-- Deleted interactions (the opt-out erasure) take their words out of the statistics at once: the
-- statistics hold words, and an erased contact's must not outlive its conversations.
create or replace function mhq.interactions_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, g.agent_id as id from gone g
           union select distinct 'client', g.client_id from gone g where g.client_id is not null
           order by 1, 2) s;
  return null;
end
$$;

-- supabase/schemas/functions/mhq.interactions_index_added.sql
-- New turns, once per statement: each is indexed, and so are the two turns on each side of it whose
-- documents hold it — all in one mhq.index_interactions call, each such turn once however many of the
-- new turns it neighbours. A batch of turns of one conversation thus costs one indexing per turn
-- (plus up to four around the batch) instead of up to five, and each text is analysed once. Each conversation written to is locked first (mhq.conversation_lock_key),
-- in key order so that two statements never wait on each other crosswise; the neighbours are looked
-- up after the locks, so turns committed meanwhile are seen.
create or replace function mhq.interactions_index_added() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
declare
  k integer;
begin
  for k in
    select distinct mhq.conversation_lock_key(a.agent_id, a.channel, a.contact_id, a.client_id, a.conversation_key)
      from added a order by 1
  loop
    perform pg_advisory_xact_lock(hashtext('mhq.conversation'), k);
  end loop;
  perform mhq.index_interactions(array(
    with recursive around (id, step, hops) as (
      select a.id, 0, 0 from added a
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

-- supabase/schemas/functions/mhq.interactions_index_trigger.sql
-- A changed turn is indexed again, and so are the two turns on each side of it, whose documents hold
-- it (new turns: mhq.interactions_index_added, once per statement). Writes to one conversation take
-- turns (mhq.conversation_lock_key); the neighbours are looked up after the lock, so a turn
-- committed meanwhile is seen. Rows are indexed in conversation order.
create or replace function mhq.interactions_index_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
declare
  prev_id uuid;
  prev2_id uuid;
  next_id uuid;
  next2_id uuid;
begin
  perform pg_advisory_xact_lock(
    hashtext('mhq.conversation'),
    mhq.conversation_lock_key(new.agent_id, new.channel, new.contact_id, new.client_id, new.conversation_key)
  );
  prev_id := mhq.interaction_neighbour(new.id, -1);
  prev2_id := case when prev_id is not null then mhq.interaction_neighbour(prev_id, -1) end;
  next_id := mhq.interaction_neighbour(new.id, 1);
  next2_id := case when next_id is not null then mhq.interaction_neighbour(next_id, 1) end;
  perform mhq.index_interactions(array_remove(array[prev2_id, prev_id, new.id, next_id, next2_id], null));
  return null;
end
$$;

-- supabase/schemas/functions/mhq.interactions_redacted_trigger.sql
-- The same when texts change (redaction), and only then: an update of embeddings leaves them be.
create or replace function mhq.interactions_redacted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, g.agent_id as id
             from gone g join fresh f on f.id = g.id where f.content is distinct from g.content
           union
           select distinct 'client', g.client_id
             from gone g join fresh f on f.id = g.id where f.content is distinct from g.content and g.client_id is not null
           order by 1, 2) s;
  return null;
end
$$;

-- supabase/schemas/functions/mhq.is_hq_admin.sql
create or replace function mhq.is_hq_admin() returns boolean
language sql stable as $$ select coalesce(mhq.hq_role() = 'admin', false) $$;

-- supabase/schemas/functions/mhq.kb_access.sql
create or replace function mhq.kb_access() returns text
language sql stable as $$ select mhq.claims() ->> 'kb_access' $$;

-- supabase/schemas/functions/mhq.is_kb_writer.sql
create or replace function mhq.is_kb_writer() returns boolean
language sql stable as $$
  select coalesce(mhq.hq_role() in ('admin', 'curator'), false)
      or (mhq.is_internal_agent() and coalesce(mhq.kb_access() = 'write', false))
$$;

-- supabase/schemas/functions/mhq.is_memory_manager.sql
-- A manager agent (internal or field): the memory manager role of seed 002.
create or replace function mhq.is_memory_manager() returns boolean
language sql stable as $$ select mhq.is_agent() and coalesce(mhq.agent_role() = 'manager', false) $$;

-- supabase/schemas/functions/mhq.knowledge_deleted_trigger.sql
-- deleted entries' postings go by the foreign key; their statistics with them
create or replace function mhq.knowledge_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'knowledge', mhq.nil_uuid(), x.lexeme, sum(x.d), sum(x.l)
    from (
      select t.lexeme, -1 as d, 0::float8 as l from gone g cross join lateral mhq.weighted_terms(g.fts) t
      union all
      select '', -1, -(select sum(t.tf) from mhq.weighted_terms(g.fts) t) from gone g
    ) x
   group by x.lexeme;
  return null;
end
$$;

-- supabase/schemas/functions/mhq.knowledge_index_trigger.sql
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

-- supabase/schemas/functions/mhq.knowledge_keep_version.sql
-- Every change of what an entry says (title, content, category, tags, status) keeps the previous
-- version and raises the version number. Embedding and access-counter updates are not changes.
-- Security definer so that callers need (and have) no write access to the history itself.
create or replace function mhq.knowledge_keep_version() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if (new.title, new.content, new.category, new.tags, new.status)
     is not distinct from (old.title, old.content, old.category, old.tags, old.status) then
    new.version := old.version;
    new.updated_at := old.updated_at;
    new.updated_by := old.updated_by;
    return new;
  end if;
  insert into knowledge_entry_versions (entry_id, version, title, content, category, tags, status, edited_by, edited_at)
  values (old.id, old.version, old.title, old.content, old.category, old.tags, old.status, old.updated_by, old.updated_at);
  new.version := old.version + 1;
  new.updated_at := now();
  new.updated_by := coalesce(nullif(mhq.claims() ->> 'name', ''), new.updated_by);
  return new;
end
$$;

-- supabase/schemas/functions/mhq.knowledge_lexical_candidates.sql
-- The knowledge base.
create or replace function mhq.knowledge_lexical_candidates(
  query_text text, category_filter text, tag_filter text[], include_archived boolean, max_rows int
)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  archived boolean;
  terms record;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  common_probe boolean[] := '{}';
  candidate_rows constant int := 100;
  -- a common lexeme in more entries than this is probed per candidate, not read whole
  probe_df constant float8 := 15 * candidate_rows;
  total_idf float8 := 0;
  avg_len float8;
begin
  if coalesce(query_text, '') = '' or not (mhq.is_hq() or mhq.is_agent()) then
    return;
  end if;
  archived := include_archived and (mhq.is_hq() or mhq.is_kb_writer());
  for terms in select * from mhq.search_query_terms('knowledge', mhq.nil_uuid(), query_text) loop
    if terms.df = 0 then
      null;
    elsif terms.rare then
      rare := rare || terms.lexeme; rare_idf := rare_idf || terms.idf;
    else
      common := common || terms.lexeme; common_idf := common_idf || terms.idf;
      common_probe := common_probe || (terms.df > probe_df);
    end if;
    total_idf := total_idf + terms.idf;
    avg_len := terms.avg_len;
  end loop;
  if cardinality(rare) = 0 then
    return;
  end if;
  return query
    with q as (select * from unnest(rare, rare_idf) as q (lexeme, idf)),
         cq as (select * from unnest(common, common_idf, common_probe) as q (lexeme, idf, probe)),
         phase1 as (
           select p.entry_id as id,
                  sum(q.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(q.idf) as matched
             from q join knowledge_postings p on p.lexeme = q.lexeme
            where (p.published or archived)
              and ((category_filter is null and tag_filter is null)
                   or exists (select 1 from knowledge_entries k
                               where k.id = p.entry_id and (category_filter is null or k.category = category_filter)
                                 and (tag_filter is null or k.tags @> tag_filter)))
            group by p.entry_id
            order by 2 desc, 1
            limit candidate_rows),
         phase2 as (
           select x.id,
                  sum(x.idf * x.tf * 2.2 / (x.tf + 1.2 * (0.25 + 0.75 * x.len / avg_len))) as score,
                  sum(x.idf) as matched
             from (
               -- a lexeme in at most probe_df entries: its postings read once, joined to the candidates
               select f.id, cq.idf, p.tf, p.len
                 from cq join knowledge_postings p on p.lexeme = cq.lexeme join phase1 f on f.id = p.entry_id
                where not cq.probe
               union all
               -- a more common one: one primary-key probe per candidate (offset 0 keeps the planner
               -- from turning the probes back into a join over all its postings)
               select f.id, cq.idf, p.tf, p.len
                 from phase1 f cross join cq
                 cross join lateral (select x.tf, x.len from knowledge_postings x
                                      where x.entry_id = f.id and x.lexeme = cq.lexeme offset 0) p
                where cq.probe) x
            group by x.id)
    select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / total_idf)::float8
      from phase1 f left join phase2 s on s.id = f.id
     order by 2 desc, f.id
     limit max_rows;
end
$$;

revoke all on function mhq.knowledge_lexical_candidates(text, text, text[], boolean, integer) from public;
grant execute on function mhq.knowledge_lexical_candidates(text, text, text[], boolean, integer) to mhq_app;

-- supabase/schemas/functions/mhq.knowledge_spelling.sql
-- The knowledge base's "did you mean": for each word of a search that no published entry's title or
-- tags contain, the closest word that one does, when it is alike enough (trigram similarity at least
-- min_similarity, pg_trgm). Words shorter than four letters are left as typed. Security invoker: the
-- vocabulary is what the caller may read.
create or replace function mhq.knowledge_spelling(p_words text[], min_similarity real default 0.4)
returns table (word text, suggestion text, similarity real)
language sql stable security invoker
set search_path = public, extensions, pg_temp
as $$
  with vocab as (
    select distinct w
      from knowledge_entries k
     cross join lateral regexp_split_to_table(lower(k.title || ' ' || array_to_string(k.tags, ' ')), '[^[:alnum:]]+') w
     where k.status = 'published' and length(w) >= 3
  ),
  asked as (
    select distinct lower(q) as word from unnest(p_words) q where length(q) >= 4
  )
  select a.word, best.w, best.sim
    from asked a
   cross join lateral (
     select v.w, similarity(a.word, v.w) as sim
       from vocab v
      order by similarity(a.word, v.w) desc, v.w
      limit 1
   ) best
   where not exists (select 1 from vocab v where v.w = a.word)
     and best.sim >= min_similarity
$$;

comment on function mhq.knowledge_spelling(text[], real) is
  'For each searched word no published title or tag contains: the most alike word one does (pg_trgm similarity >= min_similarity).';
revoke all on function mhq.knowledge_spelling(text[], real) from public;
grant execute on function mhq.knowledge_spelling(text[], real) to mhq_app;

-- supabase/schemas/functions/mhq.knowledge_stamp_author.sql
create or replace function mhq.knowledge_stamp_author() returns trigger
language plpgsql as $$
declare
  who text := nullif(mhq.claims() ->> 'name', '');
begin
  new.created_by := coalesce(who, new.created_by);
  new.updated_by := coalesce(who, new.updated_by, new.created_by);
  return new;
end
$$;

-- supabase/schemas/functions/mhq.log_retrieval.sql
-- The same insert as before, kept planned between calls. Security invoker: retrieval_log_insert
-- decides who may log what, exactly as for a plain insert. p_fallback: 'shared' when a local
-- retrieval found nothing in the agent's own scopes and searched the team's shared memory instead.
create or replace function mhq.log_retrieval(
  p_agent_id uuid, p_client_id uuid, p_endpoint text, p_caller_type text, p_level text, p_explicit_scopes boolean,
  p_scopes text[], p_trigger_kinds text[], p_items jsonb, p_took_ms float8, p_message_chars int, p_fallback text
)
returns void
language plpgsql volatile security invoker
set search_path = public, pg_temp
as $$
begin
  insert into retrieval_log (agent_id, client_id, endpoint, caller_type, level, explicit_scopes, scopes, trigger_kinds,
                             items, item_count, took_ms, message_chars, fallback)
  values (p_agent_id, p_client_id, p_endpoint, p_caller_type, p_level, p_explicit_scopes, p_scopes, p_trigger_kinds,
          p_items, jsonb_array_length(p_items), p_took_ms, p_message_chars, p_fallback);
end
$$;

revoke all on function mhq.log_retrieval(uuid, uuid, text, text, text, boolean, text[], text[], jsonb, double precision, integer, text) from public;
grant execute on function mhq.log_retrieval(uuid, uuid, text, text, text, boolean, text[], text[], jsonb, double precision, integer, text) to mhq_app;

-- supabase/schemas/functions/mhq.memories_deleted_trigger.sql
create or replace function mhq.memories_deleted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  insert into search_stats_log (corpus, corpus_id, lexeme, df_delta, len_delta)
  select 'memories', x.corpus_id, x.lexeme, sum(x.d), sum(x.l)
    from (
      select case when g.scope = 'team' then mhq.nil_uuid() else g.agent_id end as corpus_id, t.lexeme, -1 as d, 0::float8 as l
        from gone g cross join lateral mhq.weighted_terms(g.fts) t
       where g.status = 'active' or (g.scope = 'agent' and g.status = 'resolved')
      union all
      select case when g.scope = 'team' then mhq.nil_uuid() else g.agent_id end, '', -1, -(select sum(t.tf) from mhq.weighted_terms(g.fts) t)
        from gone g
       where g.status = 'active' or (g.scope = 'agent' and g.status = 'resolved')
    ) x
   group by x.corpus_id, x.lexeme;
  return null;
end
$$;

-- supabase/schemas/functions/mhq.memories_index_trigger.sql
create or replace function mhq.memories_index_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    perform mhq.index_memories(array(select f.id from fresh f order by f.id));
  else
    -- what a memory says or whether it is searchable changed (not its counters or its vector)
    perform mhq.index_memories(array(
      select f.id from fresh f join gone g on g.id = f.id
       where (f.title, f.content, f.status) is distinct from (g.title, g.content, g.status)
       order by f.id));
  end if;
  return null;
end
$$;

-- supabase/schemas/functions/mhq.memory_corpus_size.sql
-- How many searchable memories a corpus holds: BM25's document count (see ../README.md).
create or replace function mhq.memory_corpus_size(memory_scope text, owner_id uuid)
returns float8
language plpgsql stable security definer
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
as $$
declare
  corpus_key uuid := case when memory_scope = 'agent' then owner_id else mhq.nil_uuid() end;
  total float8;
begin
  if not (mhq.is_hq()
          or (memory_scope = 'agent' and mhq.is_agent() and owner_id = mhq.agent_id())
          or (memory_scope = 'team' and mhq.is_internal_agent())) then
    return 0;
  end if;
  select coalesce(sum(u.df), 0)::float8 into total
    from (
      select s.df::float8 as df from search_term_stats s where s.corpus = 'memories' and s.corpus_id = corpus_key and s.lexeme = ''
      union all
      select l.df_delta from search_stats_log l where l.corpus = 'memories' and l.corpus_id = corpus_key and l.lexeme = ''
    ) u;
  return total;
end
$$;

revoke all on function mhq.memory_corpus_size(text, uuid) from public;
grant execute on function mhq.memory_corpus_size(text, uuid) to mhq_app;

-- supabase/schemas/functions/mhq.memory_lexical_candidates.sql
-- Memories: an agent's own, or the team's.
create or replace function mhq.memory_lexical_candidates(query_text text, memory_scope text, owner_id uuid, max_rows int)
returns table (id uuid, score float8, coverage float8)
language plpgsql stable security definer
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  own boolean := memory_scope = 'agent';
  corpus_key uuid;
  author uuid := case when memory_scope = 'agent' then null else owner_id end;
  terms record;
  rare text[] := '{}';
  rare_idf float8[] := '{}';
  common text[] := '{}';
  common_idf float8[] := '{}';
  total_idf float8 := 0;
  avg_len float8;
  candidate_rows constant int := 100;
begin
  if coalesce(query_text, '') = '' or memory_scope not in ('agent', 'team') or (own and owner_id is null) then
    return;
  end if;
  if not (mhq.is_hq() or (own and mhq.is_agent() and owner_id = mhq.agent_id()) or (not own and mhq.is_internal_agent())) then
    return;
  end if;
  corpus_key := case when own then owner_id else mhq.nil_uuid() end;
  for terms in select * from mhq.search_query_terms('memories', corpus_key, query_text) loop
    if terms.df = 0 then
      null;
    elsif terms.rare then
      rare := rare || terms.lexeme; rare_idf := rare_idf || terms.idf;
    else
      common := common || terms.lexeme; common_idf := common_idf || terms.idf;
    end if;
    total_idf := total_idf + terms.idf;
    avg_len := terms.avg_len;
  end loop;
  if cardinality(rare) = 0 then
    return;
  end if;
  return query
    with q as (select * from unnest(rare, rare_idf) as q (lexeme, idf)),
         cq as (select * from unnest(common, common_idf) as q (lexeme, idf)),
         phase1 as (
           select p.memory_id as id,
                  sum(q.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(q.idf) as matched
             from q join memory_postings p on p.corpus_id = corpus_key and p.lexeme = q.lexeme
            where (author is null or p.agent_id = author)
            group by p.memory_id
            order by 2 desc, 1
            limit candidate_rows),
         phase2 as (
           -- one primary-key probe per candidate and common lexeme
           select f.id,
                  sum(cq.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.len / avg_len))) as score,
                  sum(cq.idf) as matched
             from phase1 f cross join cq
             cross join lateral (select x.tf, x.len from memory_postings x where x.memory_id = f.id and x.lexeme = cq.lexeme) p
            group by f.id)
    select f.id, (f.score + coalesce(s.score, 0))::float8, ((f.matched + coalesce(s.matched, 0)) / total_idf)::float8
      from phase1 f left join phase2 s on s.id = f.id
     order by 2 desc, f.id
     limit max_rows;
end
$$;

revoke all on function mhq.memory_lexical_candidates(text, text, uuid, integer) from public;
grant execute on function mhq.memory_lexical_candidates(text, text, uuid, integer) to mhq_app;

-- supabase/schemas/functions/mhq.memory_vector_candidates.sql
-- Nearest vectors of one model: a static statement per stored width, each walking its partial HNSW
-- index, so each keeps its plan; the planner settings force the walk (see ../README.md, "Plans").
create or replace function mhq.memory_vector_candidates(
  query_embedding vector, query_model text, memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
set hnsw.iterative_scan = relaxed_order
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  perform set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  if vector_dims(query_embedding) = 101 then
    return query
    select m.id, m.embedding::vector(101) <=> query_embedding::vector(101)
      from memories m
     where vector_dims(m.embedding) = 101 and m.embedding_model = query_model
       and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
       and (m.status = 'active' or (memory_scope = 'agent' and m.status = 'resolved'))
       and (m.expires_at is null or m.expires_at > as_of)
     order by m.embedding::vector(101) <=> query_embedding::vector(101)
     limit max_rows;
  else
    return query
    select m.id, m.embedding::vector(1536) <=> query_embedding::vector(1536)
      from memories m
     where vector_dims(m.embedding) = 1536 and m.embedding_model = query_model
       and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
       and (m.status = 'active' or (memory_scope = 'agent' and m.status = 'resolved'))
       and (m.expires_at is null or m.expires_at > as_of)
     order by m.embedding::vector(1536) <=> query_embedding::vector(1536)
     limit max_rows;
  end if;
end
$$;

revoke all on function mhq.memory_vector_candidates(vector, text, text, uuid, timestamp with time zone, integer) from public;
grant execute on function mhq.memory_vector_candidates(vector, text, text, uuid, timestamp with time zone, integer) to mhq_app;

-- supabase/schemas/functions/mhq.memory_vector_exact.sql
create or replace function mhq.memory_vector_exact(
  query_embedding vector(1536), query_model text, memory_scope text, owner_id uuid, as_of timestamptz, max_rows int
)
returns table (id uuid, distance float8)
language plpgsql stable security invoker
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
  select u.id, u.distance from (
    select m.id, m.embedding <=> query_embedding as distance
      from memories m
     where memory_scope = 'agent' and m.agent_id = owner_id and m.scope = 'agent' and m.status in ('active', 'resolved')
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
       and m.embedding_model = query_model
    union all
    select m.id, m.embedding <=> query_embedding
      from memories m
     where memory_scope = 'team' and m.scope = 'team' and m.status = 'active' and (owner_id is null or m.agent_id = owner_id)
       and (m.expires_at is null or m.expires_at > as_of) and m.embedding is not null
       and m.embedding_model = query_model
  ) u
  order by u.distance + 0
  limit max_rows;
end
$$;

revoke all on function mhq.memory_vector_exact(vector, text, text, uuid, timestamp with time zone, integer) from public;
grant execute on function mhq.memory_vector_exact(vector, text, text, uuid, timestamp with time zone, integer) to mhq_app;

-- supabase/schemas/functions/mhq.names_in_text.sql
-- The names a text mentions, for the smart trigger's vocabulary: capitalised words (and hyphenated
-- ones, "Mary-Jane") that are not English stopwords, weekdays, months or a few capitalised words of
-- everyday text. Inside a sentence every capitalised word counts; the first word of a sentence is
-- capitalised anyway, so it counts only when it is shown to be a name: a possessive ("Dana's"),
-- followed by another capitalised word ("Dana Whitfield"), or followed by a verb people are the
-- subject of ("Dana is moving", "Marco said"). At most 20 names per text, in order of appearance.
create or replace function mhq.names_in_text(p_text text) returns setof text
language plpgsql immutable parallel safe
set search_path = pg_catalog, pg_temp
as $$
declare
  v_sentence text;
  v_words text[];
  v_word text;
  v_next text;
  v_possessive boolean;
  v_seen text[] := '{}';
  i integer;
begin
  foreach v_sentence in array regexp_split_to_array(coalesce(p_text, ''), '[.!?;:\n]+(\s+|$)|\s+[-–—]+\s+|^[-*•#>]+\s*') loop
    v_words := regexp_split_to_array(btrim(v_sentence), '\s+');
    for i in 1 .. coalesce(array_length(v_words, 1), 0) loop
      v_word := regexp_replace(v_words[i], '^[("''“‘\[*_]+|[)"”\],*_]+$', '', 'g');
      v_possessive := v_word ~ '(''s|’s|s''|s’)$';
      v_word := regexp_replace(v_word, '(''s|’s|''|’)$', '');
      continue when char_length(v_word) < 3 or v_word !~ '^[[:upper:]][[:lower:]]+(-[[:upper:]][[:lower:]]+)?$';
      continue when lower(v_word) = any (v_seen);
      continue when to_tsvector('english'::regconfig, v_word) = ''::tsvector;
      continue when lower(v_word) ~ '^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|june|july|august|september|october|november|december|today|tomorrow|yesterday|tonight|also|please|thanks|thank|note|hello|okay|sure|great|yes|team|client|clients|customer|customers|agent|agents|user|users|everyone|everybody|someone|somebody|nobody|anyone|mrs|miss|prof|english|spanish|french|german|christmas|easter|thanksgiving|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)s?$';
      if i = 1 then
        v_next := regexp_replace(coalesce(v_words[i + 1], ''), '[^[:alpha:]''’-]', '', 'g');
        continue when not (
          v_possessive
          or v_next ~ '^[[:upper:]][[:lower:]]+'
          or lower(v_next) ~ '^(is|was|has|had|said|says|told|tells|asked|asks|wants|wanted|will|would|can|could|should|and|prefers|preferred|likes|liked|loves|loved|lives|lived|works|worked|moved|moves|plans|planned|mentioned|thinks|thought|called|calls|emailed|texted|needs|needed|got|went|goes|came|comes|bought|started|joined|left|lost|won|plays|played|coaches|runs|ran|owns|met|visited|agreed|promised|confirmed|decided|prefers|isn''t|wasn''t|doesn''t|didn''t|won''t|can''t|hasn''t|hadn''t|just|still|never|always|recently|finally)$'
        );
      end if;
      v_seen := v_seen || lower(v_word);
      return next v_word;
      exit when array_length(v_seen, 1) >= 20;
    end loop;
    exit when array_length(v_seen, 1) >= 20;
  end loop;
end
$$;

comment on function mhq.names_in_text(text) is 'the names a text mentions (capitalised words that are not everyday words), for the trigger vocabulary';

-- supabase/schemas/functions/mhq.nil_uuid.sql
create or replace function mhq.nil_uuid() returns uuid
language sql immutable
as $$ select '00000000-0000-0000-0000-000000000000'::uuid $$;

-- supabase/schemas/functions/mhq.own_interactions.sql
-- The calling agent's own interactions, by id or by the caller's message id (externalId): what a
-- write stored, read back for its answer, and what a retried write stored the first time. Security
-- definer because specialists write interactions but may not read them (interactions_select); it
-- returns only rows the caller wrote itself (its agent id from its claims, never from an argument).
create or replace function mhq.own_interactions(p_ids uuid[], p_external_ids text[])
returns table (
  id uuid, client_id uuid, agent_id uuid, contact_id uuid, channel text, direction text, speaker text, content text,
  occurred_at timestamptz, embedded boolean, created_at timestamptz, conversation_key text, external_id text,
  conversation text
)
language sql stable security definer
set search_path = public, pg_temp
as $$
  select i.id, i.client_id, i.agent_id, i.contact_id, i.channel, i.direction, i.speaker, i.content, i.occurred_at,
         i.embedding is not null, i.created_at, i.conversation_key, i.external_id,
         coalesce(i.conversation_key, d.conversation_id::text, i.id::text)
    from interactions i
    left join interaction_search_docs d on d.interaction_id = i.id
   where mhq.agent_id() is not null and i.agent_id = mhq.agent_id()
     and (i.id = any(p_ids) or i.external_id = any(p_external_ids))
$$;

revoke all on function mhq.own_interactions(uuid[], text[]) from public;
grant execute on function mhq.own_interactions(uuid[], text[]) to mhq_app;

-- supabase/schemas/functions/mhq.person_name.sql
-- A speaker as a person's name for the smart trigger's vocabulary, or null: letters (with
-- apostrophes, dots, hyphens and spaces between them), 2–100 characters, at most four words, and
-- not a role label that integrations use as a speaker ("user", "assistant", "agent", "customer"…).
create or replace function mhq.person_name(p_speaker text) returns text
language sql immutable parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select case
           when s.n is null or char_length(s.n) not between 2 and 100 then null
           when s.n !~ '^[[:alpha:]][[:alpha:]''’. -]*[[:alpha:].]$' then null
           when array_length(regexp_split_to_array(s.n, ' '), 1) > 4 then null
           when lower(s.n) = any ('{user,users,assistant,agent,ai,bot,chatbot,system,customer,client,contact,caller,callee,
             human,me,you,i,we,us,them,unknown,anonymous,operator,support,staff,team,lead,prospect,visitor,guest,host,
             moderator,admin,representative,rep,model,narrator,speaker,other,owner,manager,sales,tool,function,
             interviewer,interviewee,patient,member}'::text[]) then null
           else s.n
         end
    from (select nullif(regexp_replace(btrim(coalesce(p_speaker, '')), '\s+', ' ', 'g'), '') as n) s
$$;

comment on function mhq.person_name(text) is 'a speaker as a person''s name for the trigger vocabulary, or null for role labels and ids';

-- supabase/schemas/functions/mhq.published_knowledge_vector_candidates.sql
-- Nearest vectors of one model: a static statement per stored width, each walking its partial HNSW
-- index, so each keeps its plan; the planner settings force the walk (see ../README.md, "Plans").
create or replace function mhq.published_knowledge_vector_candidates(query_embedding vector, query_model text, max_rows int)
returns table (id uuid, distance float8)
language plpgsql volatile security invoker
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
set hnsw.ef_search = 40
set hnsw.iterative_scan = relaxed_order
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  perform set_config('hnsw.ef_search', greatest(40, max_rows)::text, true);
  if vector_dims(query_embedding) = 101 then
    return query
    select k.id, k.embedding::vector(101) <#> query_embedding::vector(101)
      from knowledge_entries k
     where vector_dims(k.embedding) = 101 and k.status = 'published' and k.embedding_model = query_model
     order by k.embedding::vector(101) <#> query_embedding::vector(101)
     limit max_rows;
  else
    return query
    select k.id, k.embedding::vector(1536) <#> query_embedding::vector(1536)
      from knowledge_entries k
     where vector_dims(k.embedding) = 1536 and k.status = 'published' and k.embedding_model = query_model
     order by k.embedding::vector(1536) <#> query_embedding::vector(1536)
     limit max_rows;
  end if;
end
$$;

revoke all on function mhq.published_knowledge_vector_candidates(vector, text, integer) from public;
grant execute on function mhq.published_knowledge_vector_candidates(vector, text, integer) to mhq_app;

-- supabase/schemas/functions/mhq.purge_expired_agent_notes.sql
-- The cleanup: deletes notes past their expiry (as of `p_now`) and answers how many. Callable by
-- HQ admins and by system jobs (no claims); it runs as the owner because callers cannot delete.
create or replace function mhq.purge_expired_agent_notes(p_now timestamptz default now()) returns integer
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  n integer;
begin
  if mhq.caller_type() is not null and not mhq.is_hq_admin() then
    raise exception 'only HQ admins and system jobs purge agent notes' using errcode = '42501';
  end if;
  delete from agent_notes where expires_at <= p_now;
  get diagnostics n = row_count;
  return n;
end
$$;

revoke all on function mhq.purge_expired_agent_notes(timestamp with time zone) from public;
grant execute on function mhq.purge_expired_agent_notes(timestamp with time zone) to mhq_app;

-- supabase/schemas/functions/mhq.record_access.sql
-- What a request served, recorded as access_events rows in the request's transaction (folded into
-- the counters later by mhq.fold_access_events). Security invoker: the rows are inserted as the caller, so
-- access_events_insert decides exactly as before (agents only, items they can read); the function
-- only keeps the insert's plan, with its policy checks, between calls.
create or replace function mhq.record_access(memory_ids uuid[], knowledge_ids uuid[])
returns void
language plpgsql volatile security invoker
set search_path = public, pg_temp
as $$
begin
  if cardinality(memory_ids) > 0 then
    insert into access_events (kind, item_id) select 'memory', unnest(memory_ids);
  end if;
  if cardinality(knowledge_ids) > 0 then
    insert into access_events (kind, item_id) select 'knowledge', unnest(knowledge_ids);
  end if;
end
$$;

revoke all on function mhq.record_access(uuid[], uuid[]) from public;
grant execute on function mhq.record_access(uuid[], uuid[]) to mhq_app;

-- supabase/schemas/functions/mhq.record_interaction_people.sql
-- New turns, once per statement: each agent's speakers not yet among its people are added (see
-- agent_people), in key order so that concurrent statements never wait on each other crosswise.
create or replace function mhq.record_interaction_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  insert into agent_people (agent_id, name, source)
  select d.agent_id, d.name, 'speaker'
    from (select distinct on (x.agent_id, lower(x.name)) x.agent_id, x.name
            from (select a.agent_id, mhq.person_name(a.speaker) as name, a.occurred_at, a.seq from added a) x
           where x.name is not null
           order by x.agent_id, lower(x.name), x.occurred_at, x.seq) d
   where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
   order by d.agent_id, lower(d.name)
  on conflict do nothing;
  return null;
end
$$;

revoke all on function mhq.record_interaction_people() from public;

-- supabase/schemas/functions/mhq.record_memory_people.sql
-- New or rewritten memories of an agent's own (scope 'agent'), once per statement: the names their
-- title and content mention (mhq.names_in_text) join the agent's people. On a rewrite (a redaction,
-- an edit), a name the old text mentioned that none of the agent's memories mentions any more
-- leaves them. Rows are written in key order and deleted in id order.
create or replace function mhq.record_memory_people() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  if tg_op = 'UPDATE' then
    delete from agent_people
     where id in (
       select p.id
         from agent_people p
         join (select distinct g.agent_id, lower(n.name) as n
                 from gone g
                 join fresh f on f.id = g.id and (f.title, f.content) is distinct from (g.title, g.content)
                cross join lateral mhq.names_in_text(g.title || E'\n' || g.content) n (name)
                where g.scope = 'agent') d
           on p.agent_id = d.agent_id and lower(p.name) = d.n
        where p.source = 'memory'
          -- the word anywhere in the agent's memories, in any case: kept (names are letters only)
          and not exists (select 1 from memories m
                           where m.agent_id = d.agent_id and m.scope = 'agent'
                             and (m.title || E'\n' || m.content) ~* ('\m' || d.n || '\M'))
        order by p.id
          for update of p);
    insert into agent_people (agent_id, name, source)
    select d.agent_id, d.name, 'memory'
      from (select distinct on (f.agent_id, lower(n.name)) f.agent_id, n.name
              from fresh f
              join gone g on g.id = f.id and (g.title, g.content) is distinct from (f.title, f.content)
             cross join lateral mhq.names_in_text(f.title || E'\n' || f.content) n (name)
             where f.scope = 'agent'
             order by f.agent_id, lower(n.name), n.name) d
     where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
     order by d.agent_id, lower(d.name)
    on conflict do nothing;
  else
    insert into agent_people (agent_id, name, source)
    select d.agent_id, d.name, 'memory'
      from (select distinct on (f.agent_id, lower(n.name)) f.agent_id, n.name
              from fresh f
             cross join lateral mhq.names_in_text(f.title || E'\n' || f.content) n (name)
             where f.scope = 'agent'
             order by f.agent_id, lower(n.name), n.name) d
     where not exists (select 1 from agent_people p where p.agent_id = d.agent_id and lower(p.name) = lower(d.name))
     order by d.agent_id, lower(d.name)
    on conflict do nothing;
  end if;
  return null;
end
$$;

revoke all on function mhq.record_memory_people() from public;

-- supabase/schemas/functions/mhq.refresh_interaction_stats.sql
-- Rebuilds one scope's statistics (a job: lib/retrieval/term-stats.ts). Concurrent rebuilds of one
-- scope do not queue up: whoever does not get the scope's advisory lock skips.
create or replace function mhq.refresh_interaction_stats(p_kind text, p_scope uuid, p_wait boolean default false)
returns boolean
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  col text := case p_kind when 'agent' then 'agent_id' when 'client' then 'client_id' end;
begin
  if col is null or p_scope is null then
    return false;
  end if;
  if p_wait then
    perform pg_advisory_xact_lock(hashtext('mhq.interaction_stats'), hashtext(p_kind || ':' || p_scope::text));
  elsif not pg_try_advisory_xact_lock(hashtext('mhq.interaction_stats'), hashtext(p_kind || ':' || p_scope::text)) then
    return false;
  end if;
  delete from interaction_term_stats where scope_kind = p_kind and scope_id = p_scope;
  execute format(
    'insert into interaction_term_stats (scope_kind, scope_id, lexeme, df)
     select $1, $2, p.lexeme, count(*) from interaction_postings p where p.%I = $2 group by p.lexeme', col)
    using p_kind, p_scope;
  execute format(
    'insert into interaction_corpus_stats as s (scope_kind, scope_id, n, total_len, refreshed_at)
     select $1, $2, count(*), coalesce(sum(d.len), 0), now() from interaction_search_docs d where d.%I = $2
     on conflict (scope_kind, scope_id) do update set n = excluded.n, total_len = excluded.total_len, refreshed_at = now()', col)
    using p_kind, p_scope;
  return true;
end
$$;

revoke all on function mhq.refresh_interaction_stats(text, uuid, boolean) from public;

-- supabase/schemas/functions/mhq.refuse_isolated_agent_memory.sql
-- Isolated agents (code, deploy, migrations) have no memory at all: no memory and no document is
-- ever filed under one, whoever writes it — an HQ admin included (the policies let admins write
-- under any agent). Security definer: the writer may not be able to read the agent's row.
create or replace function mhq.refuse_isolated_agent_memory() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if exists (select 1 from agents a where a.id = new.agent_id and a.role = 'isolated') then
    raise exception 'isolated agents have no memory' using errcode = '42501';
  end if;
  return new;
end
$$;

revoke all on function mhq.refuse_isolated_agent_memory() from public;

-- supabase/schemas/functions/mhq.refuse_opted_out_contact.sql
-- Opt-out erasure (seed 002) must leave nothing about the contact, even when a write linked to the
-- contact runs at the same moment. The services check `opt_out` first, but that read may predate
-- an erasure still in progress: the erasure (mhq.erase_contact, which locks the contact row FOR
-- UPDATE) would delete what it can see, and the other write would commit afterwards.
--
-- This trigger re-reads the contact with a row lock before any row naming it is stored. The lock
-- waits for an erasure in progress and then sees its result, so the write is refused (SQLSTATE
-- MHQ09, answered 409). A write that gets the lock first makes the erasure wait until it commits,
-- and the erasure then deletes it like any other.
create or replace function mhq.refuse_opted_out_contact() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  v_opt_out boolean;
begin
  if new.contact_id is null then
    return new;
  end if;
  select c.opt_out into v_opt_out from contacts c where c.id = new.contact_id for key share;
  if coalesce(v_opt_out, false) then
    raise exception 'This contact opted out; nothing more is stored about them' using errcode = 'MHQ09';
  end if;
  return new;
end
$$;

revoke all on function mhq.refuse_opted_out_contact() from public;

-- supabase/schemas/functions/mhq.search_query_terms.sql
-- The query's lexemes with their document frequency and BM25 IDF, from the corpus statistics plus
-- the deltas not yet folded in (see ../README.md, "Lexical ranking").
create or replace function mhq.search_query_terms(p_corpus text, p_corpus_id uuid, query_text text)
returns table (lexeme text, df float8, idf float8, rare boolean, avg_len float8)
language plpgsql stable
set search_path = public, pg_temp
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
  with q as (
    select coalesce(array_agg(distinct t.lexeme), '{}') || array[''] as lexemes
      from unnest(to_tsvector('english', coalesce(query_text, ''))) t
  ),
  counts as (
    select u.lexeme, sum(u.df) as df, sum(u.len) as len
      from (
        select s.lexeme, s.df::float8 as df, s.total_len as len
          from search_term_stats s, q
         where s.corpus = p_corpus and s.corpus_id = p_corpus_id and s.lexeme = any (q.lexemes)
        union all
        select l.lexeme, l.df_delta, l.len_delta
          from search_stats_log l, q
         where l.corpus = p_corpus and l.corpus_id = p_corpus_id and l.lexeme = any (q.lexemes)
      ) u
     group by u.lexeme
  ),
  corpus as (
    select greatest(coalesce(sum(c.df), 0), 0)::float8 as n, greatest(coalesce(sum(c.len), 0), 0)::float8 as len
      from counts c where c.lexeme = ''
  ),
  terms as (
    select l.lexeme, greatest(coalesce(c.df, 0), 0)::float8 as df
      from q cross join lateral unnest(q.lexemes) as l (lexeme) left join counts c on c.lexeme = l.lexeme
     where l.lexeme <> ''
     order by 2, l.lexeme
     limit 32
  )
  select t.lexeme, t.df,
         ln(1 + (greatest(corpus.n, t.df) - t.df + 0.5) / (t.df + 0.5)),
         sum(t.df) over (order by t.df, t.lexeme) - t.df = 0 or sum(t.df) over (order by t.df, t.lexeme) <= 1500,
         greatest(corpus.len / nullif(corpus.n, 0), 1)
    from terms t, corpus
   where corpus.n > 0
   order by t.df, t.lexeme;
end
$$;

revoke all on function mhq.search_query_terms(text, uuid, text) from public;

-- supabase/schemas/functions/mhq.stamp_embedding_model.sql
create or replace function mhq.stamp_embedding_model() returns trigger
language plpgsql
as $$
begin
  if new.embedding is null then
    new.embedding_model := null;
  elsif tg_op = 'INSERT' then
    new.embedding_model := coalesce(new.embedding_model, nullif(current_setting('mhq.embedding_model', true), ''));
  elsif new.embedding is distinct from old.embedding and new.embedding_model is not distinct from old.embedding_model then
    new.embedding_model := nullif(current_setting('mhq.embedding_model', true), '');
  end if;
  return new;
end
$$;

-- supabase/schemas/functions/mhq.tags_text.sql
-- array_to_string is only "stable" (it calls element output functions); for text[] it is in fact
-- immutable, which a generated column requires.
create or replace function mhq.tags_text(p_tags text[]) returns text
language sql immutable parallel safe as $$ select coalesce(array_to_string(p_tags, ' '), '') $$;

-- supabase/schemas/functions/mhq.touch_updated_at.sql
create or replace function mhq.touch_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at = now();
  return new;
end
$$;

-- supabase/schemas/functions/mhq.weighted_terms.sql
-- A document's weighted terms from its stored tsvector: a weight-A position (title, tags) counts 2,
-- any other 1. Stemmed by Postgres's english configuration, stopwords dropped.
create or replace function mhq.weighted_terms(doc tsvector)
returns table (lexeme text, tf real)
language sql immutable
as $$
  select t.lexeme, sum(case when w.w = 'A' then 2 else 1 end)::real
    from unnest(doc) t
    cross join lateral unnest(coalesce(t.weights, array['D'])) as w (w)
   group by t.lexeme
$$;

-- supabase/schemas/functions/mhq.writes_canonical_memory.sql
-- Who writes canonical memory (contacts, facts) directly: manager agents and HQ admins.
create or replace function mhq.writes_canonical_memory() returns boolean
language sql stable as $$ select mhq.is_hq_admin() or mhq.is_memory_manager() $$;

-- supabase/schemas/functions/public.search_documents.sql
-- An agent's documents (a handful per agent), ranked exactly: BM25 and cosine fused by weighted
-- scores (see ../README.md, "Fusion").
create or replace function public.search_documents(
  query_text text,
  query_embedding vector(1536),
  query_model text,
  match_count int,
  owner_id uuid,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0
)
returns table (
  id uuid,
  agent_id uuid,
  type text,
  doc_date date,
  content text,
  updated_at timestamptz,
  created_at timestamptz,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql stable security invoker
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
  with docs as (
    select d.id, d.fts, case when query_embedding is not null and d.embedding_model = query_model
                             then 1 - (d.embedding <=> query_embedding) end as sim
      from agent_documents d
     where d.agent_id = owner_id and d.content <> ''
  ),
  q as (select distinct t.lexeme from unnest(to_tsvector('english', coalesce(query_text, ''))) t),
  corpus as (select count(*)::float8 as n, greatest(avg(length(d.fts)), 1)::float8 as avg_len from docs d),
  tfs as (
    select d.id, t.lexeme, coalesce(array_length(t.positions, 1), 1)::float8 as tf, length(d.fts)::float8 as len
      from docs d cross join lateral unnest(d.fts) t
     where t.lexeme in (select q.lexeme from q)
  ),
  idf as (
    select t.lexeme, ln(1 + (corpus.n - count(*) + 0.5) / (count(*) + 0.5)) as idf
      from tfs t, corpus group by t.lexeme, corpus.n
  ),
  lex as (
    select t.id, sum(i.idf * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * t.len / corpus.avg_len))) as bm25, sum(i.idf) as matched
      from tfs t join idf i on i.lexeme = t.lexeme, corpus
     group by t.id
  ),
  total as (
    -- every query lexeme's IDF, those no document holds at their highest
    select sum(coalesce(i.idf, ln(1 + (corpus.n + 0.5) / 0.5))) as idf
      from q left join idf i on i.lexeme = q.lexeme, corpus
  ),
  ranked as (
    select d.id, lex.bm25, lex.matched, d.sim,
           case when lex.id is not null then row_number() over (order by lex.bm25 desc nulls last, d.id) end as lex_rank,
           case when d.sim >= min_similarity then row_number() over (order by d.sim desc nulls last, d.id) end as vec_rank,
           max(lex.bm25) over () as best
      from docs d left join lex on lex.id = d.id
  )
  select x.id, x.agent_id, x.type, x.doc_date, x.content, x.updated_at, x.created_at,
         (lexical_weight * coalesce(r.bm25 / nullif(r.best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(r.best, 0), 0)::float8,
         coalesce(r.matched / nullif(total.idf, 0), 0)::float8,
         r.sim::float8, r.lex_rank, r.vec_rank
    from ranked r join agent_documents x on x.id = r.id, total
   where r.lex_rank is not null or r.vec_rank is not null
   order by 8 desc, r.id
   limit match_count;
end
$$;

revoke all on function public.search_documents(text, vector, text, integer, uuid, double precision, double precision) from public;
grant execute on function public.search_documents(text, vector, text, integer, uuid, double precision, double precision) to mhq_app;

-- supabase/schemas/functions/public.search_interactions.sql
-- A conversations search takes its candidates from two lists, the BM25F ranking and the nearest
-- vectors (the best 40 of each), then reads each candidate row and scores it with every signal: its
-- conversation's coverage, its neighbours' vectors, the speaker and question tests.
create or replace function public.search_interactions(
  query_text text,
  query_embedding vector,
  query_model text,
  match_count int,
  agent_filter uuid,
  client_filter uuid,
  exact_scan_max int default 300
)
returns table (
  id uuid,
  agent_id uuid,
  client_id uuid,
  contact_id uuid,
  channel text,
  direction text,
  speaker text,
  content text,
  occurred_at timestamptz,
  created_at timestamptz,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  context_similarity float8,
  conversation_coverage float8
)
language plpgsql volatile security invoker
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count, 40);
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  lex_conv float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
  -- the context vector's missing neighbour: zeros of the query's width
  zero vector := case when query_embedding is not null then array_fill(0::real, array[vector_dims(query_embedding)])::vector end;
  words text := ' ' || lower(regexp_replace(coalesce(query_text, ''), '[^[:alnum:]]+', ' ', 'g')) || ' ';
begin
  if agent_filter is null and client_filter is null then
    raise exception 'agent_filter or client_filter is required' using errcode = '22023';
  end if;
  select coalesce(array_agg(c.id order by c.score desc), '{}'), coalesce(array_agg(c.score order by c.score desc), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc), '{}'), coalesce(array_agg(c.conversation_coverage order by c.score desc), '{}')
    into lex_ids, lex_scores, lex_cover, lex_conv
    from mhq.interaction_lexical_candidates(query_text, agent_filter, client_filter, pool) c;
  best := coalesce(lex_scores[1], 0);

  if query_embedding is not null and query_model is not null then
    if mhq.interaction_vectors_at_most(exact_scan_max, agent_filter, client_filter) then
      select coalesce(array_agg(v.id), '{}'), coalesce(array_agg(1 - v.distance), '{}') into vec_ids, vec_sims
        from mhq.interaction_vector_exact(query_embedding, query_model, agent_filter, client_filter, pool) v;
    else
      select coalesce(array_agg(v.id), '{}'), coalesce(array_agg(1 - v.distance), '{}') into vec_ids, vec_sims
        from mhq.interaction_vector_candidates(query_embedding, query_model, agent_filter, client_filter, pool) v;
    end if;
  end if;

  return query
  with found_rows as materialized (
    select i.id, i.agent_id, i.client_id, i.contact_id, i.channel, i.direction, i.speaker, i.content, i.occurred_at, i.created_at,
           lex_scores[p.lx] as bm25, lex_cover[p.lx] as cover, lex_conv[p.lx] as conv_cover, d.prev_id, d.next_id, d.own_terms,
           -- a vector is read back only for lexical hits the nearest rows did not include
           coalesce(vec_sims[p.vx], case when p.vx is null and query_embedding is not null and i.embedding_model = query_model
                                         then 1 - (i.embedding <=> query_embedding) end) as sim,
           coalesce(lex_scores[p.lx] / nullif(best, 0), 0) as lex_norm,
           (i.speaker <> '' and position(' ' || lower(regexp_replace(i.speaker, '[^[:alnum:]]+', ' ', 'g')) || ' ' in words) > 0) as named,
           (i.content ~ '\?\s*$') as question
      from interactions i
      -- each row's place in either list, looked up in the arrays
      cross join lateral (select array_position(lex_ids, i.id) as lx, array_position(vec_ids, i.id) as vx) p
      left join interaction_search_docs d on d.interaction_id = i.id
     where i.id = any(lex_ids || vec_ids)
       and (agent_filter is null or i.agent_id = agent_filter) and (client_filter is null or i.client_id = client_filter)
  ),
  -- every signal but the context vector's; the context vector (three vectors read per row) only
  -- for the rows that can still reach the answer
  partial as materialized (
    select r.*,
           1.5 * r.lex_norm + 0.2 * greatest(coalesce(r.sim, 0), 0) + 0.9 * coalesce(r.conv_cover, 0)
             + 0.45 * r.named::int + 0.4 * least(1, coalesce(r.own_terms, 0) / 20.0) - 0.3 * r.question::int as part_score
      from found_rows r
     order by part_score desc, r.id
     limit greatest(match_count + 20, 30)
  ),
  signals as (
    select r.*,
           -- the context vector: twice the own vector plus each neighbour's (of the same model)
           case when r.sim is not null then 1 - ((own.embedding + own.embedding
                  + coalesce((select p.embedding from interactions p where p.id = r.prev_id and p.embedding_model = query_model), zero)
                  + coalesce((select n.embedding from interactions n where n.id = r.next_id and n.embedding_model = query_model), zero)
                ) <=> query_embedding) end as ctx_sim
      from partial r left join interactions own on own.id = r.id and own.embedding_model = query_model and r.sim is not null
  )
  select s.id, s.agent_id, s.client_id, s.contact_id, s.channel, s.direction, s.speaker, s.content, s.occurred_at, s.created_at,
         greatest(0, (s.part_score + 1.0 * greatest(coalesce(s.ctx_sim, 0), 0)) / 4.45)::float8,
         s.lex_norm::float8, coalesce(s.cover, 0)::float8, s.sim::float8, s.ctx_sim::float8, coalesce(s.conv_cover, 0)::float8
    from signals s
   order by 11 desc, s.id
   limit match_count;
end
$$;

revoke all on function public.search_interactions(text, vector, text, integer, uuid, uuid, integer) from public;
grant execute on function public.search_interactions(text, vector, text, integer, uuid, uuid, integer) to mhq_app;

-- supabase/schemas/functions/public.search_knowledge.sql
-- The knowledge base, for curators and agents alike.
create or replace function public.search_knowledge(
  query_text text,
  query_embedding vector,
  query_model text,
  match_count int,
  category_filter text default null,
  tag_filter text[] default null,
  include_archived boolean default false,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0,
  exact_scan_max int default 1000
)
returns table (
  id uuid,
  title text,
  content text,
  category text,
  tags text[],
  version int,
  status text,
  created_by text,
  updated_by text,
  created_at timestamptz,
  updated_at timestamptz,
  accessed_count int,
  last_accessed_at timestamptz,
  has_embedding boolean,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql volatile security invoker
set enable_seqscan = on
set enable_bitmapscan = on
set enable_sort = on
set hnsw.ef_search = 100
set plan_cache_mode = force_generic_plan
set hnsw.iterative_scan = relaxed_order
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count * 2, 20);
  exact boolean := true;
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
begin
  select coalesce(array_agg(c.id order by c.score desc, c.id), '{}'), coalesce(array_agg(c.score order by c.score desc, c.id), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc, c.id), '{}')
    into lex_ids, lex_scores, lex_cover
    from mhq.knowledge_lexical_candidates(query_text, category_filter, tag_filter, include_archived, pool) c;
  best := coalesce(lex_scores[1], 0);

  if query_embedding is not null and query_model is not null then
    if category_filter is null and tag_filter is null and not include_archived then
      -- inner product: the index's operator; the vectors are unit length, so -(a <#> b) is the cosine
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(-n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.published_knowledge_vector_candidates(query_embedding, query_model, pool) n
       where -n.distance >= min_similarity;
    else
      if category_filter is not null or tag_filter is not null then
        select count(*) <= exact_scan_max into exact
          from (
            select 1 from knowledge_entries k
             where k.embedding is not null and k.embedding_model = query_model
               and (include_archived or k.status = 'published')
               and (category_filter is null or k.category = category_filter)
               and (tag_filter is null or k.tags @> tag_filter)
             limit exact_scan_max + 1
          ) filtered;
      else
        exact := false;
      end if;
      if not exact then
        perform set_config('enable_seqscan', 'off', true);
        perform set_config('enable_bitmapscan', 'off', true);
        perform set_config('enable_sort', 'off', true);
      end if;
      -- dynamic so that it is planned for these settings and these filter values every time, on
      -- the HNSW index of the query's width
      execute format($q$
        select coalesce(array_agg(nearest.id order by nearest.distance, nearest.id), '{}'),
               coalesce(array_agg(-nearest.distance order by nearest.distance, nearest.id), '{}')
          from (
            select k.id, k.embedding::vector(%1$s) <#> $1::vector(%1$s) as distance
              from knowledge_entries k
             where vector_dims(k.embedding) = %1$s and k.embedding_model = $6
               and ($2 or k.status = 'published')
               and ($3::text is null or k.category = $3)
               and ($4::text[] is null or k.tags @> $4)
             order by k.embedding::vector(%1$s) <#> $1::vector(%1$s)
             limit $5
          ) nearest
         where -nearest.distance >= $7
      $q$, vector_dims(query_embedding))
        into vec_ids, vec_sims using query_embedding, include_archived, category_filter, tag_filter, pool, query_model, min_similarity;
      perform set_config('enable_seqscan', 'on', true);
      perform set_config('enable_bitmapscan', 'on', true);
      perform set_config('enable_sort', 'on', true);
    end if;
  end if;

  return query
  with found_rows as (
    select k.*, lex_scores[p.lx] as bm25, lex_cover[p.lx] as cover, p.lx::bigint as lex_rank, p.vx::bigint as vec_rank,
           coalesce(vec_sims[p.vx], case when p.vx is null and query_embedding is not null and k.embedding_model = query_model
                                         then -(k.embedding <#> query_embedding) end) as sim
      from knowledge_entries k
      -- each row's place in either list (its rank there), looked up in the arrays
      cross join lateral (select array_position(lex_ids, k.id) as lx, array_position(vec_ids, k.id) as vx) p
     -- the candidates' filters once more, on the rows as RLS lets the caller read them
     where k.id = any (lex_ids || vec_ids)
       and (include_archived or k.status = 'published')
       and (category_filter is null or k.category = category_filter)
       and (tag_filter is null or k.tags @> tag_filter)
  )
  select r.id, r.title, r.content, r.category, r.tags, r.version, r.status, r.created_by, r.updated_by,
         r.created_at, r.updated_at, r.accessed_count, r.last_accessed_at, r.embedding is not null,
         (lexical_weight * coalesce(r.bm25 / nullif(best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(best, 0), 0)::float8, coalesce(r.cover, 0)::float8, r.sim::float8, r.lex_rank, r.vec_rank
    from found_rows r
   order by 15 desc, r.id
   limit match_count;
end
$$;

revoke all on function public.search_knowledge(text, vector, text, integer, text, text[], boolean, double precision, double precision, integer) from public;
grant execute on function public.search_knowledge(text, vector, text, integer, text, text[], boolean, double precision, double precision, integer) to mhq_app;

-- supabase/schemas/functions/public.search_memories.sql
-- Memories: an agent's own, or the team's.
create or replace function public.search_memories(
  query_text text,
  query_embedding vector(1536),
  query_model text,
  match_count int,
  memory_scope text default 'agent',
  owner_id uuid default null,
  lexical_weight float8 default 0.6,
  min_similarity float8 default 0,
  exact_scan_max int default 300,
  as_of timestamptz default now()
)
returns table (
  id uuid,
  agent_id uuid,
  scope text,
  tier text,
  category text,
  title text,
  content text,
  tags text[],
  confidence float8,
  created_by_name text,
  occurred_at timestamptz,
  created_at timestamptz,
  score float8,
  lexical_score float8,
  coverage float8,
  similarity float8,
  full_text_rank bigint,
  semantic_rank bigint
)
language plpgsql volatile security invoker
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  pool int := greatest(match_count * 2, 20);
  own boolean := memory_scope = 'agent';
  lex_ids uuid[] := '{}';
  lex_scores float8[] := '{}';
  lex_cover float8[] := '{}';
  vec_ids uuid[] := '{}';
  vec_sims float8[] := '{}';
  best float8;
begin
  if memory_scope not in ('agent', 'team') then
    raise exception 'memory_scope must be agent or team' using errcode = '22023';
  end if;
  if own and owner_id is null then
    raise exception 'owner_id is required for agent-scope memories' using errcode = '22023';
  end if;
  select coalesce(array_agg(c.id order by c.score desc, c.id), '{}'), coalesce(array_agg(c.score order by c.score desc, c.id), '{}'),
         coalesce(array_agg(c.coverage order by c.score desc, c.id), '{}')
    into lex_ids, lex_scores, lex_cover
    from mhq.memory_lexical_candidates(query_text, memory_scope, owner_id, pool) c;
  best := coalesce(lex_scores[1], 0);

  if query_embedding is not null and query_model is not null then
    if mhq.memory_corpus_size(memory_scope, owner_id) <= exact_scan_max then
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.memory_vector_exact(query_embedding, query_model, memory_scope, owner_id, as_of, pool) n
       where 1 - n.distance >= min_similarity;
    else
      select coalesce(array_agg(n.id order by n.distance, n.id), '{}'), coalesce(array_agg(1 - n.distance order by n.distance, n.id), '{}')
        into vec_ids, vec_sims
        from mhq.memory_vector_candidates(query_embedding, query_model, memory_scope, owner_id, as_of, pool) n
       where 1 - n.distance >= min_similarity;
    end if;
  end if;

  return query
  with found_rows as (
    -- a vector is read back only for lexical hits the nearest rows did not include
    select m.*, lex_scores[p.lx] as bm25, lex_cover[p.lx] as cover, p.lx::bigint as lex_rank, p.vx::bigint as vec_rank,
           coalesce(vec_sims[p.vx], case when p.vx is null and query_embedding is not null and m.embedding_model = query_model
                                         then 1 - (m.embedding <=> query_embedding) end) as sim
      from memories m
      -- each row's place in either list (its rank there), looked up in the arrays
      cross join lateral (select array_position(lex_ids, m.id) as lx, array_position(vec_ids, m.id) as vx) p
     -- the candidates' filters once more, on the rows as RLS lets the caller read them
     where m.id = any (lex_ids || vec_ids)
       and m.scope = memory_scope and (owner_id is null or m.agent_id = owner_id)
       and (m.status = 'active' or (own and m.status = 'resolved'))
       and (m.expires_at is null or m.expires_at > as_of)
  )
  select r.id, r.agent_id, r.scope, r.tier, r.category, r.title, r.content, r.tags, r.confidence, r.created_by_name,
         r.occurred_at, r.created_at,
         (lexical_weight * coalesce(r.bm25 / nullif(best, 0), 0) + (1 - lexical_weight) * greatest(coalesce(r.sim, 0), 0))::float8,
         coalesce(r.bm25 / nullif(best, 0), 0)::float8, coalesce(r.cover, 0)::float8, r.sim::float8, r.lex_rank, r.vec_rank
    from found_rows r
   order by 13 desc, r.id
   limit match_count;
end
$$;

revoke all on function public.search_memories(text, vector, text, integer, text, uuid, double precision, double precision, integer, timestamp with time zone) from public;
grant execute on function public.search_memories(text, vector, text, integer, text, uuid, double precision, double precision, integer, timestamp with time zone) to mhq_app;

-- Data moves (written by hand). Until this migration, two migrations' data moves and the real bodies of
-- the functions above were applied by the project's runner only; a database built by applying the
-- migrations alone (psql, Supabase's CLI) lacks what they would have written. Done here again, for
-- every database, with the functions above:
--
-- 1. Conversations. A turn recorded after 20261130100000 was not indexed there (the first form of
--    mhq.interactions_index_added did nothing), so neither it nor its neighbours' documents hold its
--    text; and the turns of an agent whose turns share a time were indexed in id order. Each turn of
--    such an agent is indexed again, in the order its conversations were recorded; then the
--    statistics of those agents and their clients are rebuilt, since they count the documents' words.
do $$
declare
  agents uuid[];
  r record;
begin
  select coalesce(array_agg(a.agent_id), '{}') into agents from (
    select t.agent_id from interactions t group by t.agent_id, t.occurred_at having count(*) > 1
    union
    select t.agent_id from interactions t
     where not exists (select 1 from interaction_search_docs d where d.interaction_id = t.id)) a;
  for r in
    select i.id from interactions i where i.agent_id = any(agents) order by i.agent_id, i.occurred_at, i.seq
  loop
    perform mhq.index_interaction(r.id);
  end loop;
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, i.agent_id as id from interactions i where i.agent_id = any(agents)
           union
           select distinct 'client', i.client_id from interactions i where i.agent_id = any(agents) and i.client_id is not null
           order by 1, 2) s;
end
$$;

-- 2. People (20261201100000): every agent's speakers, then the names its own memories mention, each
--    agent's in the order they were first recorded.
insert into agent_people (agent_id, name, source)
select s.agent_id, s.name, 'speaker' from (
  select distinct on (i.agent_id, lower(mhq.person_name(i.speaker))) i.agent_id, mhq.person_name(i.speaker) as name, i.occurred_at, i.seq
    from interactions i
   where mhq.person_name(i.speaker) is not null
   order by i.agent_id, lower(mhq.person_name(i.speaker)), i.occurred_at, i.seq
) s
order by s.agent_id, s.occurred_at, s.seq
on conflict do nothing;

insert into agent_people (agent_id, name, source)
select s.agent_id, s.name, 'memory' from (
  select distinct on (m.agent_id, lower(n.name)) m.agent_id, n.name, m.created_at, m.id
    from memories m
   cross join lateral mhq.names_in_text(m.title || E'\n' || m.content) n (name)
   where m.scope = 'agent'
   order by m.agent_id, lower(n.name), m.created_at, m.id
) s
order by s.agent_id, s.created_at, s.id
on conflict do nothing;
