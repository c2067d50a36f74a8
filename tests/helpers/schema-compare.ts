// Comparing the schemas of databases built in different ways (migrations applied by psql, by the
// runner, upgraded from an earlier release): pg_dump on a real PostgreSQL, in lines and in functions.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { diffLines } from "diff";
import type { Queryable } from "@/lib/db/types";
import { testServerUrl } from "./postgres-server";

const root = process.cwd();
const bin = (name: string) => [`/usr/lib/postgresql/15/bin/${name}`].find(existsSync) ?? name;

/** `npm run db:migrate`, as an operator runs it; its output. */
export function npmMigrate(env: Record<string, string>): string {
  const r = spawnSync("npm", ["run", "--silent", "db:migrate"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", ...env },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`npm run db:migrate failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * `pg_dump --schema-only`. `withoutRunnerRecord`: leaves out the table in which the project's runner
 * records the migrations it applied (Supabase's CLI keeps its own, in another schema), to compare
 * with a database the migrations were applied to by other means.
 */
export function pgDump(url: string, opts: { withoutRunnerRecord?: boolean } = {}): string {
  const args = ["--schema-only", ...(opts.withoutRunnerRecord ? ["--exclude-table=mhq.schema_migrations"] : []), url];
  const out = execFileSync(bin("pg_dump"), args, { encoding: "utf8", maxBuffer: 64 << 20 });
  // a random key pg_dump writes into each dump
  return out.replace(/^\\(un)?restrict .*$/gm, "");
}

/** Applies SQL files with `psql -v ON_ERROR_STOP=1`, all in one session (`reset all` between files, as Supabase's CLI does). */
export function psqlFiles(url: string, files: string[]): void {
  const args = ["-X", "-q", "-v", "ON_ERROR_STOP=1", url, ...files.flatMap((f) => ["-c", "reset all", "-f", f])];
  const r = spawnSync(bin("psql"), args, { encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`psql ${files.map((f) => f.split("/").pop()).join(" ")} failed:\n${r.stderr}`);
}

/** How many lines of `a` and `b` differ (removed plus added), in order. */
export function differingLines(a: string, b: string): number {
  return diffLines(a, b)
    .filter((p) => p.added || p.removed)
    .reduce((n, p) => n + (p.count ?? 0), 0);
}

/** Functions of public and mhq that one database lacks or has with another definition or grants. */
export async function functionsWithAnotherBody(a: Queryable, b: Queryable): Promise<string[]> {
  const read = async (db: Queryable) =>
    new Map(
      (
        await db.query<{ sig: string; def: string }>(
          `select p.oid::regprocedure::text as sig,
                  pg_get_functiondef(p.oid) || coalesce(array_to_string(p.proacl, ','), '') as def
             from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname in ('public', 'mhq') and p.prokind in ('f', 'p')
              and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
        )
      ).map((r) => [r.sig, r.def]),
    );
  const [x, y] = [await read(a), await read(b)];
  return [...new Set([...x.keys(), ...y.keys()])].filter((sig) => x.get(sig) !== y.get(sig)).sort();
}

/** The admin URL of the database an owner URL names (pg_dump reads every object as the admin). */
export function adminUrlOf(ownerUrl: string): string {
  const u = new URL(ownerUrl);
  const admin = new URL(testServerUrl());
  u.username = admin.username;
  u.password = admin.password;
  return u.toString();
}
