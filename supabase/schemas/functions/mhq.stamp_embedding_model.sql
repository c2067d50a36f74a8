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
