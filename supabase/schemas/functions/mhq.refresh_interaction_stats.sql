-- Rebuilds one scope's statistics (a job: lib/retrieval/term-stats.ts). Concurrent rebuilds of one
-- scope do not queue up: whoever does not get the scope's advisory lock skips.
create or replace function mhq.refresh_interaction_stats(p_kind text, p_scope uuid, p_wait boolean default false)
returns boolean
language plpgsql volatile security definer
set search_path = public, pg_temp
as $$
declare
  col text := case p_kind when 'agent' then 'agent_id' when 'client' then 'client_id' end;
begin
  if col is null or p_scope is null then
    return false;
  end if;
  if p_wait then
    perform pg_advisory_xact_lock(hashtext('mhq.interaction_stats'), hashtext(p_kind || ':' || p_scope::text));
  elsif not pg_try_advisory_xact_lock(hashtext('mhq.interaction_stats'), hashtext(p_kind || ':' || p_scope::text)) then
    return false;
  end if;
  delete from interaction_term_stats where scope_kind = p_kind and scope_id = p_scope;
  execute format(
    'insert into interaction_term_stats (scope_kind, scope_id, lexeme, df)
     select $1, $2, p.lexeme, count(*) from interaction_postings p where p.%I = $2 group by p.lexeme', col)
    using p_kind, p_scope;
  execute format(
    'insert into interaction_corpus_stats as s (scope_kind, scope_id, n, total_len, refreshed_at)
     select $1, $2, count(*), coalesce(sum(d.len), 0), now() from interaction_search_docs d where d.%I = $2
     on conflict (scope_kind, scope_id) do update set n = excluded.n, total_len = excluded.total_len, refreshed_at = now()', col)
    using p_kind, p_scope;
  return true;
end
$$;

revoke all on function mhq.refresh_interaction_stats(text, uuid, boolean) from public;
