-- Attachments on interactions: what a photo, file or voice note in a message showed, as a chat
-- integration records it (a caption or alt text, a name, a link, a media type). At most 10 per
-- message, checked here as the API checks them (mhq.valid_attachments); an older row has none.
-- The captions are part of the text a turn is searched by (mhq.interaction_text): its vector, and
-- the words GET /interactions?q= matches.

-- Whether an interaction's attachments are what the API accepts (interactions_attachments_valid):
-- an array of at most 10 objects, each with a kind (image, file, audio) and nothing but a caption
-- (≤ 2,000 characters), a name (≤ 255), an http(s) url (≤ 2,000) and a mimeType (≤ 255), all text.
create or replace function mhq.valid_attachments(p_attachments jsonb)
returns boolean
language sql immutable
as $$
  -- (case: the elements are read only once the value is known to be an array)
  select case when jsonb_typeof(p_attachments) <> 'array' or jsonb_array_length(p_attachments) > 10 then false
    else not exists (
       select 1 from jsonb_array_elements(p_attachments) e (a)
        where jsonb_typeof(e.a) <> 'object'
           or coalesce(e.a ->> 'kind', '') not in ('image', 'file', 'audio')
           or exists (select 1 from jsonb_each(e.a) f (k, v)
                       where f.k not in ('kind', 'caption', 'name', 'url', 'mimeType') or jsonb_typeof(f.v) <> 'string')
           or char_length(coalesce(e.a ->> 'caption', '')) > 2000
           or char_length(coalesce(e.a ->> 'name', '')) > 255
           or char_length(coalesce(e.a ->> 'mimeType', '')) > 255
           or (e.a ? 'url' and (char_length(e.a ->> 'url') > 2000 or e.a ->> 'url' !~* '^https?://')))
  end
$$;

-- The text a turn is searched by: what was said, then each attachment's caption on a line of its own
-- as "[image: a photo of a red bike]" (lib/memories/attachments.ts composes the same for the turn's
-- vector). Its words are the turn's own in the conversation index and in GET /interactions?q=.
create or replace function mhq.interaction_text(p_content text, p_attachments jsonb)
returns text
language sql immutable
as $$
  select p_content || coalesce((
    select string_agg(E'\n[' || (e.a ->> 'kind') || ': ' || (e.a ->> 'caption') || ']', '' order by e.n)
      -- (not an array: the table's check refuses it, but the fts column is computed first)
      from jsonb_array_elements(case when jsonb_typeof(p_attachments) = 'array' then p_attachments else '[]'::jsonb end)
           with ordinality e (a, n)
     where jsonb_typeof(e.a) = 'object' and coalesce(e.a ->> 'caption', '') <> ''), '')
$$;

alter table interactions add column attachments jsonb not null default '[]'::jsonb;
alter table interactions add constraint interactions_attachments_valid check (mhq.valid_attachments(attachments));

-- serves: GET /interactions?q= (the console's transcript search), captions included
drop index interactions_fts_idx;
alter table interactions drop column fts;
alter table interactions add column fts tsvector
  generated always as (to_tsvector('english'::regconfig, mhq.interaction_text(content, attachments))) stored;
create index interactions_fts_idx on interactions using gin (fts);

-- a write reads its own turns back with their attachments (a new returned column: dropped first)
drop function if exists mhq.own_interactions(uuid[], text[]);
-- The calling agent's own interactions, by id or by the caller's message id (externalId): what a
-- write stored, read back for its answer, and what a retried write stored the first time. Security
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
$$;

revoke all on function mhq.own_interactions(uuid[], text[]) from public;
grant execute on function mhq.own_interactions(uuid[], text[]) to mhq_app;
