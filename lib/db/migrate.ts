import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Database } from "./types";

// the migrations are read at run time from the project folder, not bundled: keep the tracer out
export const MIGRATIONS_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "supabase", "migrations");

const FILE_PATTERN = /^(\d{14})_([a-z0-9_]+)\.sql$/;

export interface MigrationFile {
  version: string;
  name: string;
  file: string;
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  return files.map((file) => {
    const m = FILE_PATTERN.exec(file);
    if (!m) throw new Error(`Migration file name must be <14-digit timestamp>_<name>.sql: ${file}`);
    return { version: m[1]!, name: m[2]!, file: path.join(dir, file) };
  });
}

/**
 * Applies every migration not yet recorded in mhq.schema_migrations, in file order, each in its
 * own transaction, and records it. Safe to run on every start; returns the versions it applied.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(`
    create schema if not exists mhq;
    create table if not exists mhq.schema_migrations (
      version text primary key,
      name text not null,
      applied_at timestamptz not null default now()
    );`);
  const applied = new Set(
    (await db.query<{ version: string }>("select version from mhq.schema_migrations")).map((r) => r.version),
  );
  const done: string[] = [];
  for (const m of await listMigrations(dir)) {
    if (applied.has(m.version)) continue;
    const sql = await readFile(m.file, "utf8");
    await db.transaction(async (tx) => {
      // concurrent starts (several app instances on one Postgres) apply each migration once
      await tx.query(`select pg_advisory_xact_lock(727274)`);
      const again = await tx.query("select 1 from mhq.schema_migrations where version = $1", [m.version]);
      if (again.length) return;
      await tx.exec(sql);
      await tx.query("insert into mhq.schema_migrations (version, name) values ($1, $2)", [m.version, m.name]);
    });
    done.push(m.version);
  }
  return done;
}

