import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Database, Queryable } from "./types";

// read at run time from the project folder, not bundled: keep the tracer out
const SUPABASE_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "supabase");
export const MIGRATIONS_DIR = path.join(SUPABASE_DIR, "migrations");
export const SCHEMA_DIR = path.join(SUPABASE_DIR, "schema");
/**
 * A migration's data move that needs this release's functions (re-indexing rows by new rules, say)
 * lives here under the migration's own file name: it runs after the schema files, in the same
 * transaction, when that migration is applied.
 */
export const FOLLOWUPS_DIR = path.join(SUPABASE_DIR, "followups");

/**
 * Schema files are applied in this order, and by file name within a folder. Function bodies are not
 * checked while functions are created (as pg_dump restores them), so functions may call each other
 * in any order; views come after every function they may use.
 */
export const SCHEMA_FOLDERS = ["functions", "views"] as const;

/** The oldest pgvector whose settings the search functions carry (`hnsw.iterative_scan`). */
const MIN_PGVECTOR = [0, 8, 0];

const MIGRATION_NAME = /^(\d{14})_([a-z0-9_]+)\.sql$/;
const SCHEMA_NAME = /^[a-z0-9_]+\.[a-z0-9_]+\.sql$/;
// every run holds this transaction lock, so concurrent starts of several instances migrate once
const MIGRATION_LOCK = 727274;

export interface SchemaFile {
  /** relative to `supabase/`, e.g. `schema/functions/public.search_memories.sql` */
  path: string;
  file: string;
  checksum: string;
}

export interface MigrateResult {
  /** versions of the migrations applied by this run, in order */
  migrations: string[];
  /** schema files (re)applied by this run */
  schemaFiles: string[];
}

export interface MigrationFile {
  version: string;
  name: string;
  file: string;
  checksum: string;
  /** its data move after the schema files, if it has one */
  followup?: string;
}

export interface MigrateOptions {
  migrationsDir?: string;
  schemaDir?: string;
  followupsDir?: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export async function listMigrations(dir = MIGRATIONS_DIR, followupsDir = FOLLOWUPS_DIR): Promise<MigrationFile[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  const followups = await readdir(followupsDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [] as string[];
    throw err;
  });
  const orphan = followups.find((f) => !files.includes(f));
  if (orphan) throw new Error(`Follow-up ${orphan} has no migration of the same name in ${dir}`);
  return Promise.all(
    files.map(async (name) => {
      const m = MIGRATION_NAME.exec(name);
      if (!m) throw new Error(`Migration file name must be <14-digit timestamp>_<name>.sql: ${name}`);
      const file = path.join(dir, name);
      const followup = followups.includes(name) ? path.join(followupsDir, name) : undefined;
      // the follow-up is part of the migration: an edit of either changes its checksum
      const text = (await readFile(file, "utf8")) + (followup ? `\n${await readFile(followup, "utf8")}` : "");
      return { version: m[1]!, name: m[2]!, file, checksum: sha256(text), ...(followup ? { followup } : {}) };
    }),
  );
}

export async function listSchemaFiles(dir = SCHEMA_DIR): Promise<SchemaFile[]> {
  const out: SchemaFile[] = [];
  for (const folder of SCHEMA_FOLDERS) {
    let names: string[];
    try {
      names = (await readdir(path.join(dir, folder))).filter((f) => f.endsWith(".sql")).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw err;
    }
    for (const name of names) {
      if (!SCHEMA_NAME.test(name)) throw new Error(`Schema file name must be <schema>.<object>.sql: ${folder}/${name}`);
      const file = path.join(dir, folder, name);
      out.push({ path: `schema/${folder}/${name}`, file, checksum: sha256(await readFile(file, "utf8")) });
    }
  }
  return out;
}

/**
 * Brings the database to this release in one transaction: every pending migration in file order,
 * then every schema file whose checksum differs from the one recorded (all of them after any
 * migration ran, since a migration may have dropped or replaced what they define), then the
 * follow-ups of the migrations this run applied. Safe to run on
 * every start. Refuses, changing nothing, a database whose applied migrations this release does not
 * have or has in another form: landed migrations are append-only.
 */
export async function migrate(db: Database, opts: MigrateOptions = {}): Promise<MigrateResult> {
  const [migrations, schemaFiles] = await Promise.all([
    listMigrations(opts.migrationsDir, opts.followupsDir),
    listSchemaFiles(opts.schemaDir),
  ]);
  return db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.exec(`
      create schema if not exists mhq;
      create table if not exists mhq.schema_migrations (
        version text primary key,
        name text not null,
        applied_at timestamptz not null default now()
      );
      alter table mhq.schema_migrations add column if not exists checksum text;
      create table if not exists mhq.schema_files (
        path text primary key,
        checksum text not null,
        applied_at timestamptz not null default now()
      );`);
    const applied = await tx.query<{ version: string; name: string; checksum: string | null }>(
      "select version, name, checksum from mhq.schema_migrations order by version",
    );
    checkApplied(applied, migrations);
    // databases migrated before checksums were recorded: their files are taken as applied
    for (const m of migrations) {
      if (applied.some((a) => a.version === m.version && a.checksum === null)) {
        await tx.query("update mhq.schema_migrations set checksum = $2 where version = $1", [m.version, m.checksum]);
      }
    }

    const session = new SessionSetup(tx);
    const done = new Set(applied.map((a) => a.version));
    const result: MigrateResult = { migrations: [], schemaFiles: [] };
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await session.prepare();
      await tx.exec(await readFile(m.file, "utf8"));
      await tx.query("insert into mhq.schema_migrations (version, name, checksum) values ($1, $2, $3)", [
        m.version,
        m.name,
        m.checksum,
      ]);
      result.migrations.push(m.version);
    }

    const recorded = new Map(
      (await tx.query<{ path: string; checksum: string }>("select path, checksum from mhq.schema_files")).map((r) => [
        r.path,
        r.checksum,
      ]),
    );
    const due = schemaFiles.filter((f) => result.migrations.length > 0 || recorded.get(f.path) !== f.checksum);
    if (due.length) {
      await session.prepare();
      await session.requireVector();
      for (const f of due) {
        // only functions are created unchecked; a view must be valid when it is created
        const checkBodies = f.path.startsWith("schema/functions/") ? "off" : "on";
        await tx.query("select set_config('check_function_bodies', $1, true)", [checkBodies]);
        await tx.exec(await readFile(f.file, "utf8"));
        await tx.query(
          `insert into mhq.schema_files (path, checksum) values ($1, $2)
           on conflict (path) do update set checksum = excluded.checksum, applied_at = now()`,
          [f.path, f.checksum],
        );
        result.schemaFiles.push(f.path);
      }
      await tx.query("select set_config('check_function_bodies', 'on', true)");
    }
    for (const m of migrations) {
      if (!m.followup || !result.migrations.includes(m.version)) continue;
      await tx.exec(await readFile(m.followup, "utf8"));
    }
    // a removed schema file's object is dropped by the migration that removed it; forget the file
    const gone = [...recorded.keys()].filter((p) => !schemaFiles.some((f) => f.path === p));
    if (gone.length) await tx.query("delete from mhq.schema_files where path = any($1::text[])", [gone]);
    return result;
  });
}

function checkApplied(applied: { version: string; name: string; checksum: string | null }[], files: MigrationFile[]) {
  const byVersion = new Map(files.map((f) => [f.version, f]));
  for (const a of applied) {
    const file = byVersion.get(a.version);
    if (!file) {
      throw new Error(
        `The database has migration ${a.version}_${a.name}, which this release does not have: it was migrated by a ` +
          `newer or different release. Nothing was changed; run the release that migrated it.`,
      );
    }
    if (a.checksum !== null && a.checksum !== file.checksum) {
      throw new Error(
        `Migration ${a.version}_${a.name}.sql has changed since it was applied to this database (checksum then ` +
          `${a.checksum.slice(0, 12)}…, now ${file.checksum.slice(0, 12)}…). Applied migrations are append-only: ` +
          `restore the file as it was and put the change in a new migration. Nothing was changed.`,
      );
    }
  }
}

/**
 * What a migration or schema file may rely on in its session, whatever ran before it: objects are
 * created in `public` with pgvector's schema on the path, and pgvector's library is loaded, so its
 * settings (`hnsw.ef_search`, …) are known. Until the library is loaded they are placeholders that
 * only a superuser may put on a function, and a managed database's owner is not one.
 */
class SessionSetup {
  private loaded = false;

  constructor(private readonly tx: Queryable) {}

  async prepare(): Promise<void> {
    if (this.loaded) return;
    const [ext] = await this.tx.query<{ schema: string }>(
      "select extnamespace::regnamespace::text as schema from pg_extension where extname = 'vector'",
    );
    const searchPath = ext && ext.schema !== "public" ? `public, ${ext.schema}` : "public";
    await this.tx.query("select set_config('search_path', $1, true)", [searchPath]);
    if (!ext) return;
    // any use of the type loads the library
    await this.tx.query(`select '[0]'::${ext.schema}.vector`);
    this.loaded = true;
  }

  async requireVector(): Promise<void> {
    const [ext] = await this.tx.query<{ version: string }>("select extversion as version from pg_extension where extname = 'vector'");
    if (!ext) throw new Error("The pgvector extension is missing: run `create extension vector;` as a superuser first.");
    const have = ext.version.split("-")[0]!.split(".").map(Number);
    const older = MIN_PGVECTOR.findIndex((n, i) => (have[i] ?? 0) !== n);
    if (older >= 0 && (have[older] ?? 0) < MIN_PGVECTOR[older]!) {
      throw new Error(
        `pgvector ${MIN_PGVECTOR.join(".")} or newer is required, the database has ${ext.version}: ` +
          "run `alter extension vector update;` (Supabase: Database → Extensions). Nothing was changed.",
      );
    }
  }
}
