-- A turn whose captions change (the opt-out erasure redacts a name in them) is indexed again, with
-- its neighbours, as when its text changes: its captions are part of its document.
drop trigger interactions_reindex on interactions;
create trigger interactions_reindex after update of content, attachments on interactions
  for each row when (old.content is distinct from new.content or old.attachments is distinct from new.attachments)
  execute function mhq.interactions_index_trigger();
