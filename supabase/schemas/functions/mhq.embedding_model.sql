-- The vector halves of the existing searches keep their signatures and compare only vectors of the
-- transaction's model (mhq.embedding_model); with no model set they compare none.
create or replace function mhq.embedding_model() returns text
language sql stable
as $$ select nullif(current_setting('mhq.embedding_model', true), '') $$;

grant execute on function mhq.embedding_model() to mhq_app;
