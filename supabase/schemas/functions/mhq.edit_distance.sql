-- How many single-letter edits turn one word into another, a swap of two neighbouring letters counting
-- as one edit (the optimal string alignment distance): "refnud" is one edit from "refund", where
-- trigram similarity rates the two as barely alike. For short words (the spelling check's words).
create or replace function mhq.edit_distance(a text, b text)
returns integer
language plpgsql immutable strict parallel safe
set search_path = pg_catalog, pg_temp
as $$
declare
  la integer := length(a);
  lb integer := length(b);
  w integer := length(b) + 1;
  d integer[];
  i integer;
  j integer;
  v integer;
begin
  if la = 0 then return lb; end if;
  if lb = 0 then return la; end if;
  -- d[i][j] (the distance of a's first i letters to b's first j) lives at i * w + j + 1
  d := array_fill(0, array[(la + 1) * w]);
  for i in 0..la loop d[i * w + 1] := i; end loop;
  for j in 0..lb loop d[j + 1] := j; end loop;
  for i in 1..la loop
    for j in 1..lb loop
      v := least(
        d[(i - 1) * w + j + 1] + 1,
        d[i * w + j] + 1,
        d[(i - 1) * w + j] + case when substr(a, i, 1) = substr(b, j, 1) then 0 else 1 end
      );
      if i > 1 and j > 1 and substr(a, i, 1) = substr(b, j - 1, 1) and substr(a, i - 1, 1) = substr(b, j, 1) then
        v := least(v, d[(i - 2) * w + j - 1] + 1);
      end if;
      d[i * w + j + 1] := v;
    end loop;
  end loop;
  return d[la * w + lb + 1];
end
$$;

comment on function mhq.edit_distance(text, text) is
  'Single-letter edits (insert, delete, replace, swap two neighbours) from a to b: the optimal string alignment distance.';
revoke all on function mhq.edit_distance(text, text) from public;
grant execute on function mhq.edit_distance(text, text) to mhq_app;
