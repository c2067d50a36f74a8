import type { Queryable } from "@/lib/db/types";

/**
 * The schema of `public` and `mhq` as sorted text lines, read from the catalogs, for comparing two
 * databases where pg_dump cannot run (the embedded one): tables and their columns, constraints,
 * indexes, row-level security and policies, triggers, functions (whole definitions, settings and
 * grants), views, sequences and table grants. Both databases must have the same owner: ACL items name it.
 */
export async function schemaFingerprint(db: Queryable): Promise<string[]> {
  const parts: [string, string][] = [
    [
      "column",
      `select c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
              || case when a.attnotnull then ' not null' else '' end
              || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') || ' #' || a.attnum as line
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where n.nspname in ('public', 'mhq') and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped`,
    ],
    [
      "table",
      `select c.relname || ' ' || c.relkind::text || ' rls=' || c.relrowsecurity || ' force=' || c.relforcerowsecurity
              || ' acl=' || coalesce(array_to_string(array(select unnest(c.relacl)::text order by 1), ','), '') as line
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'mhq') and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
    ],
    [
      "constraint",
      `select c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid) as line
         from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'mhq')`,
    ],
    [
      "index",
      `select pg_get_indexdef(i.indexrelid) as line
         from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'mhq')`,
    ],
    [
      "policy",
      `select tablename || ' ' || policyname || ' ' || permissive || ' ' || array_to_string(roles, ',') || ' ' || cmd
              || ' using ' || coalesce(qual, '-') || ' check ' || coalesce(with_check, '-') as line
         from pg_policies where schemaname in ('public', 'mhq')`,
    ],
    [
      "trigger",
      `select pg_get_triggerdef(t.oid) as line
         from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'mhq') and not t.tgisinternal`,
    ],
    [
      "function",
      `select pg_get_functiondef(p.oid)
              || ' acl=' || coalesce(array_to_string(array(select unnest(p.proacl)::text order by 1), ','), '') as line
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'mhq') and p.prokind in ('f', 'p')
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    ],
    [
      "view",
      `select c.relname || ' ' || pg_get_viewdef(c.oid) as line
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'mhq') and c.relkind in ('v', 'm')`,
    ],
    ["extension", `select extname || ' ' || extnamespace::regnamespace::text as line from pg_extension`],
  ];
  const lines: string[] = [];
  for (const [kind, sql] of parts) {
    const rows = await db.query<{ line: string }>(sql);
    for (const r of rows) lines.push(`${kind}: ${r.line}`);
  }
  return lines.sort();
}
