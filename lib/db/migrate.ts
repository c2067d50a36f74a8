import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Database, Queryable } from "./types";

// read at run time from the project folder, not bundled: keep the tracer out
export const MIGRATIONS_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "supabase", "migrations");

/** The oldest pgvector whose settings the search functions carry (`hnsw.iterative_scan`). */
const MIN_PGVECTOR = [0, 8, 0];

const MIGRATION_NAME = /^(\d{14})_([a-z0-9_]+)\.sql$/;
// every run holds this transaction lock, so concurrent starts of several instances migrate once
const MIGRATION_LOCK = 727274;

/**
 * Checksums earlier releases recorded for migrations that then had a data move in a second file
 * (run by their runner only), taken over as those migrations' own: the move is now part of a later
 * migration, which every database applies.
 */
const CHECKSUMS_WITH_FOLLOWUP: Record<string, string> = {
  "20261130100000": "056022dbe6261b3999e3ebad65cb1ce391a0d5191b202c67d23b0e145a38282d",
  "20261201100000": "e296815df4e1d62a10d929ed7a0e62098adf2b7c6dd93fb1a6c75db2e75ca32b",
};

export interface MigrateResult {
  /** versions of the migrations applied by this run, in order */
  migrations: string[];
}

export interface MigrationFile {
  version: string;
  name: string;
  file: string;
  checksum: string;
}

export interface MigrateOptions {
  migrationsDir?: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  return Promise.all(
    files.map(async (name) => {
      const m = MIGRATION_NAME.exec(name);
      if (!m) throw new Error(`Migration file name must be <14-digit timestamp>_<name>.sql: ${name}`);
      const file = path.join(dir, name);
      return { version: m[1]!, name: m[2]!, file, checksum: sha256(await readFile(file, "utf8")) };
    }),
  );
}

/**
 * Brings the database to this release in one transaction under an advisory lock: every pending
 * migration, in file order, exactly as written — what applying the files one after another in one
 * session with psql or Supabase's CLI does, and nothing else (but loading pgvector's library first:
 * see requireVector). Safe to run on every start. Refuses,
 * changing nothing, a database whose applied migrations this release does not have or has in
 * another form (landed migrations are append-only), and a pgvector older than the functions need.
 */
export async function migrate(db: Database, opts: MigrateOptions = {}): Promise<MigrateResult> {
  const migrations = await listMigrations(opts.migrationsDir);
  return db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    // the runner's own record, like Supabase's supabase_migrations.schema_migrations
    await tx.exec(`
      create schema if not exists mhq;
      create table if not exists mhq.schema_migrations (
        version text primary key,
        name text not null,
        applied_at timestamptz not null default now()
      );
      alter table mhq.schema_migrations add column if not exists checksum text;
      -- where earlier releases' runner recorded the function files it applied besides the migrations
      drop table if exists mhq.schema_files;`);
    const applied = await tx.query<{ version: string; name: string; checksum: string | null }>(
      "select version, name, checksum from mhq.schema_migrations order by version",
    );
    for (const a of applied) {
      // databases migrated before checksums were recorded, or with a data move beside the migration:
      // their files are taken as applied
      const file = migrations.find((m) => m.version === a.version);
      if (file && (a.checksum === null || a.checksum === CHECKSUMS_WITH_FOLLOWUP[a.version])) {
        await tx.query("update mhq.schema_migrations set checksum = $2 where version = $1", [a.version, file.checksum]);
        a.checksum = file.checksum;
      }
    }
    checkApplied(applied, migrations);

    const done = new Set(applied.map((a) => a.version));
    const pending = migrations.filter((m) => !done.has(m.version));
    if (pending.length) await requireVector(tx);
    for (const m of pending) {
      await tx.exec(await readFile(m.file, "utf8"));
      await tx.query("insert into mhq.schema_migrations (version, name, checksum) values ($1, $2, $3)", [
        m.version,
        m.name,
        m.checksum,
      ]);
    }
    return { migrations: pending.map((m) => m.version) };
  });
}

/**
 * A server database whose schema is not this release's: requests are answered 503 with this message
 * until it is migrated (the app never migrates a server database itself).
 */
export class SchemaNotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SchemaNotReadyError";
  }
}

/**
 * Whether `err` is a SchemaNotReadyError. By name, not `instanceof`: the check's outcome is shared by
 * the whole process, and the server's route handlers and pages are bundled apart, each with its own
 * copy of the class.
 */
export function isSchemaNotReady(err: unknown): err is SchemaNotReadyError {
  return err instanceof Error && err.name === "SchemaNotReadyError";
}

export interface SchemaState {
  /** no Memory HQ table at all: nothing was ever applied */
  missing: boolean;
  /** this release's migrations the database's records do not list, in file order */
  pending: string[];
}

/**
 * How a server database stands against this release's migrations, read from the records of whoever
 * applied them: this runner's `mhq.schema_migrations` and Supabase's CLI's
 * `supabase_migrations.schema_migrations` (a version either lists counts as applied). Files applied
 * with plain psql leave no record: a database with the tables and neither record counts as current.
 * A record the connection may not read is left out.
 */
export async function schemaState(db: Queryable, dir = MIGRATIONS_DIR): Promise<SchemaState> {
  const migrations = await listMigrations(dir);
  const [where] = await db.query<{ tables: boolean; runner: boolean; supabase: boolean }>(
    `select to_regclass('agents') is not null as tables,
            to_regclass('mhq.schema_migrations') is not null as runner,
            to_regclass('supabase_migrations.schema_migrations') is not null as supabase`,
  );
  if (!where?.tables) return { missing: true, pending: migrations.map((m) => m.version) };
  const applied = new Set<string>();
  for (const record of [where.runner && "mhq.schema_migrations", where.supabase && "supabase_migrations.schema_migrations"]) {
    if (!record) continue;
    const rows = await db.query<{ version: string }>(`select version::text as version from ${record}`).catch(() => []);
    for (const r of rows) applied.add(r.version);
  }
  if (!applied.size) return { missing: false, pending: [] };
  return { missing: false, pending: migrations.filter((m) => !applied.has(m.version)).map((m) => m.version) };
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
 * The migrations need pgvector ≥ 0.8 (installed, or the version `create extension` would install),
 * reachable by its type's bare name (in `public`, or in a schema on the search path, as
 * `extensions` is on Supabase): say so before anything is applied rather than fail halfway.
 *
 * Then pgvector's library is loaded into the session. Five early migrations (20261121140100,
 * 20261121160000, 20261121170000, 20261123110000, 20261124200000) put its `hnsw.*` settings on
 * functions, which a non-superuser may do only once the library is loaded, and rely on an earlier
 * file of the same session having loaded it (a table with a vector column does). Applied from the
 * first migration on, in one session, that holds; an upgrade from a release that stopped between
 * them starts a session after those files. Loading it changes nothing else: every later migration
 * loads the library itself where it needs it.
 */
async function requireVector(tx: Queryable): Promise<void> {
  const [ext] = await tx.query<{ version: string | null; schema: string | null; visible: boolean; available: string | null }>(
    `select e.extversion as version, e.extnamespace::regnamespace::text as schema,
            coalesce(e.extnamespace::regnamespace::text = any(current_schemas(false)::text[]), true) as visible,
            (select a.default_version from pg_available_extensions a where a.name = 'vector') as available
       from (select 1) one left join pg_extension e on e.extname = 'vector'`,
  );
  const version = ext?.version ?? ext?.available;
  if (!version) {
    throw new Error("pgvector is not installed on this PostgreSQL server: install it (Supabase has it), then migrate again. Nothing was changed.");
  }
  if (ext && !ext.visible) {
    throw new Error(
      `pgvector is installed in schema ${ext.schema}, which is not on this role's search path, so the migrations cannot name its type: ` +
        `\`alter role current_user set search_path = "$user", public, ${ext.schema};\` (as on Supabase), then migrate again. Nothing was changed.`,
    );
  }
  if (ext?.version) await tx.query(`select '[1]'::${ext.schema}.vector`);
  const have = version.split("-")[0]!.split(".").map(Number);
  const older = MIN_PGVECTOR.findIndex((n, i) => (have[i] ?? 0) !== n);
  if (older >= 0 && (have[older] ?? 0) < MIN_PGVECTOR[older]!) {
    throw new Error(
      `pgvector ${MIN_PGVECTOR.join(".")} or newer is required, the database has ${version}: ` +
        "run `alter extension vector update;` (Supabase: Database → Extensions). Nothing was changed.",
    );
  }
}
