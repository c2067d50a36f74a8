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
