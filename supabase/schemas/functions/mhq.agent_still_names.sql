-- Whether the agent's memory still names `p_name`: a turn it keeps has them as its speaker or
-- mentions the name (as written, capitalised, a whole word), or one of its own memories mentions it
-- (in any case). The triggers that keep agent_people remove a person only when nothing names them,
-- wherever the name was first seen.
create or replace function mhq.agent_still_names(p_agent_id uuid, p_name text) returns boolean
language sql stable
set search_path = public, pg_temp
as $$
  select exists (select 1 from interactions i
                  where i.agent_id = p_agent_id and lower(mhq.person_name(i.speaker)) = lower(p_name))
      or exists (select 1 from interactions i
                  where i.agent_id = p_agent_id
                    and i.content ~ ('(?<![[:alnum:]])' || regexp_replace(p_name, '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g') || '(?![[:alnum:]])'))
      or exists (select 1 from memories m
                  where m.agent_id = p_agent_id and m.scope = 'agent'
                    and (m.title || E'\n' || m.content) ~* ('(?<![[:alnum:]])' || regexp_replace(p_name, '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g') || '(?![[:alnum:]])'))
$$;

revoke all on function mhq.agent_still_names(uuid, text) from public;
