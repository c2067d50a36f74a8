-- A surprise score says how unexpected a learned lesson was when it was written; core and working
-- memories have none. Writes kept a score given with any tier, and a memory moved out of the
-- learning tier kept its own. Those scores are cleared (rows locked in id order, as every multi-row
-- update locks them), and the table now refuses a score on a memory outside the learning tier.
update memories m set surprise_score = null
  from (select id from memories where tier <> 'learning' and surprise_score is not null order by id for update) w
 where m.id = w.id;

alter table memories add constraint memories_surprise_learning_only check (tier = 'learning' or surprise_score is null);
