import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { searchResultsView } from "./contracts";

type Results = z.output<typeof searchResultsView>;

/** `%word%` for each word of the search, LIKE's own wildcards escaped: every word must appear. */
export function likePatterns(q: string): string[] {
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/**
 * The best first: the whole text equal to the search, then starting with it, then a word starting
 * with it, then containing it; shorter texts before longer ones.
 */
const rank = (column: string) => `
  case when lower(${column}) = lower($2) then 0
       when lower(${column}) like lower($3) escape '\\' then 1
       when lower(${column}) ~ ('(^|[^[:alnum:]])' || regexp_replace(lower($2), '([^[:alnum:][:space:]])', '\\\\\\1', 'g')) then 2
       else 3 end, length(${column}), ${column}`;

/** Each kind's query: $1 the patterns, $2 the search, $3 its prefix pattern, $4 the limit. Rows as the caller may see them (RLS). */
const SQL = {
  agents: `select a.id, a.name, a.kind, a.role, c.name as "clientName"
             from agents a left join clients c on c.id = a.client_id
            where lower(a.name) like all($1::text[])
            order by ${rank("a.name")} limit $4`,
  contacts: `select x.id, x.name, x."clientName" from (
               select ct.id, coalesce(ct.name, ct.email, ct.phone) as name, cl.name as "clientName",
                      lower(concat_ws(' ', ct.name, ct.email, ct.phone)) as haystack
                 from contacts ct left join clients cl on cl.id = ct.client_id
                where not ct.opt_out
             ) x
             where x.name is not null and x.haystack like all($1::text[])
             order by ${rank("x.name")} limit $4`,
  knowledge: `select k.id, k.title, k.category, k.status
                from knowledge_entries k
               where k.status <> 'archived' and lower(k.title || ' ' || array_to_string(k.tags, ' ')) like all($1::text[])
               order by ${rank("k.title")} limit $4`,
  escalations: `select e.id, e.question, e.severity, e.status, c.name as "clientName"
                  from escalations e left join clients c on c.id = e.client_id
                 where lower(e.question) like all($1::text[])
                 order by (e.status = 'open') desc, ${rank("e.question")} limit $4`,
} as const;

export type SearchKind = keyof typeof SQL;

export function searchKind(tx: Queryable, kind: SearchKind, p: { q: string; limit: number }): Promise<Results[SearchKind]> {
  const prefix = `${p.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return tx.query<Results[SearchKind][number]>(SQL[kind], [likePatterns(p.q), p.q, prefix, p.limit]) as Promise<Results[SearchKind]>;
}
