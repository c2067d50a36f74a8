-- The weighted terms of one interaction's document: its own text (1), the turns before it (0.5,
-- 0.25), the turns after it (0.3, 0.15; not counted in the length) and its day (0.5).
create or replace function mhq.interaction_context_terms(p_id uuid, prev_id uuid, prev2_id uuid, next_id uuid, next2_id uuid)
returns table (lexeme text, tf real, len real)
language sql stable
set search_path = public, pg_temp
as $$
  with fields as (
    select x.content as body, 1.0::float8 as w, true as counted from interactions x where x.id = p_id
    union all
    select p.content, 0.5, true from interactions p where p.id = prev_id
    union all
    select p.content, 0.25, true from interactions p where p.id = prev2_id
    union all
    select n.content, 0.3, false from interactions n where n.id = next_id
    union all
    select n.content, 0.15, false from interactions n where n.id = next2_id
    union all
    select to_char(x.occurred_at at time zone 'UTC', 'FMDD FMMonth YYYY'), 0.5, true from interactions x where x.id = p_id
  ),
  terms as (
    select t.lexeme, f.w * coalesce(array_length(t.positions, 1), 1) as tf, f.counted
      from fields f, unnest(to_tsvector('english', f.body)) t
  )
  select t.lexeme, sum(t.tf)::real, (sum(sum(t.tf) filter (where t.counted)) over ())::real from terms t group by t.lexeme
$$;
