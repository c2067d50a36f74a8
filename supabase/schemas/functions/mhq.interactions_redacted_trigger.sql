-- The same when texts, speakers or captions change (redaction), and only then: an update of embeddings leaves them be.
create or replace function mhq.interactions_redacted_trigger() returns trigger
language plpgsql security definer
set search_path = public, pg_temp
as $$
begin
  perform mhq.refresh_interaction_stats(s.kind, s.id, true)
     from (select distinct 'agent' as kind, g.agent_id as id
             from gone g join fresh f on f.id = g.id where (f.speaker, f.content, f.attachments) is distinct from (g.speaker, g.content, g.attachments)
           union
           select distinct 'client', g.client_id
             from gone g join fresh f on f.id = g.id where (f.speaker, f.content, f.attachments) is distinct from (g.speaker, g.content, g.attachments) and g.client_id is not null
           order by 1, 2) s;
  return null;
end
$$;
