import "server-only";
import path from "node:path";
import { mkdir } from "node:fs/promises";
import { getConfig } from "@/lib/config";
import type { Caller } from "@/lib/auth/caller";
import { claimsFor, withClaims } from "./caller";
import { migrate, isSchemaNotReady, SchemaNotReadyError, schemaState } from "./migrate";
import { openPglite } from "./pglite";
import { openPostgres, preparesStatements } from "./postgres";
import { boundToRequest, requestTurnsBulk } from "./request-scope";
import { DATABASE_UNREACHABLE, isDatabaseUnreachable } from "./unreachable";
import { claimDataDir, PGLITE_SUBDIR } from "./snapshot";
import type { Lane } from "./lanes";
import type { Database, Queryable } from "./types";
import { ENGINE_SOCKET_ENV, SEAM_GLOBALS } from "@/server/seam.mjs";
import { processWide } from "@/lib/process-wide";

export type { Database, Queryable, StoredRow } from "./types";
export type { Lane } from "./lanes";

/** Set by server.mjs: the Unix socket its embedded-database thread serves (the wire protocol). */
export { ENGINE_SOCKET_ENV };

interface DbState {
  ready?: Promise<Database>;
  /** a server database's schema was found to be this release's (it only moves forward: never asked again) */
  schemaCurrent?: boolean;
  /** the last check of a server database's schema that found it behind, asked again after SCHEMA_RECHECK_MS */
  schemaCheck?: { at: number; done: Promise<void> };
  /** the last message logged about it, so that each state is logged once */
  schemaLogged?: string;
}

/** How long a server database found unmigrated is answered 503 before it is looked at again. */
const SCHEMA_RECHECK_MS = 5_000;

// One database per process, so Next.js dev reloads reuse it.
const state = processWide<DbState>("database", () => ({}));

/**
 * The process-wide database: opened, migrated and (embedded, first start) seeded with the demo once.
 * A server database is not migrated here: while its schema is not this release's, this throws
 * `SchemaNotReadyError` (answered 503) and says once in the log what to run.
 */
export async function getDatabase(): Promise<Database> {
  state.ready ??= openConfigured().catch((err) => {
    state.ready = undefined;
    throw err;
  });
  const db = await state.ready;
  if (!state.schemaCurrent) await requireServerSchema(db);
  return db;
}

/**
 * Why the console cannot use its database, for its pages to say instead of failing: a server database
 * not yet migrated, or one that cannot be reached just now; undefined when it answers.
 */
export async function databaseNotReady(): Promise<string | undefined> {
  try {
    await (await getDatabase()).query("select 1");
    return undefined;
  } catch (err) {
    if (isSchemaNotReady(err)) return err.message;
    if (isDatabaseUnreachable(err)) return DATABASE_UNREACHABLE;
    throw err;
  }
}

async function requireServerSchema(db: Database): Promise<void> {
  const now = Date.now();
  if (!state.schemaCheck || now - state.schemaCheck.at >= SCHEMA_RECHECK_MS) {
    state.schemaCheck = { at: now, done: checkServerSchema(db) };
  }
  await state.schemaCheck.done;
}

async function checkServerSchema(db: Database): Promise<void> {
  const { missing, pending } = await schemaState(db).catch((err: NodeJS.ErrnoException) => {
    // deployed without supabase/migrations: nothing to compare with, so nothing is held back
    if (err.code !== "ENOENT") throw err;
    console.warn(`[memory-hq] the migrations folder is missing (${err.path}): the database's schema is not checked`);
    return { missing: false, pending: [] };
  });
  if (!pending.length) {
    state.schemaCurrent = true;
    if (state.schemaLogged) console.log("[memory-hq] the database's schema is now this release's: serving requests");
    return;
  }
  const what = missing
    ? "The database has no Memory HQ schema yet"
    : `The database's schema is ${pending.length} migration${pending.length === 1 ? "" : "s"} behind this release`;
  const message = `${what}: the operator applies supabase/migrations with \`npm run db:migrate\` (or Supabase's CLI); until then nothing is served.`;
  if (state.schemaLogged !== message) {
    console.error(`[memory-hq] ${message}${missing ? "" : ` Pending: ${pending.join(", ")}.`}`);
    state.schemaLogged = message;
  }
  throw new SchemaNotReadyError(message);
}

async function openConfigured(): Promise<Database> {
  const config = getConfig();
  if (config.DATABASE_URL) {
    // A server database is migrated by `npm run db:migrate` (or `supabase db push`), not at start.
    return openPostgres(config.DATABASE_URL, {
      max: config.DATABASE_POOL_MAX,
      bulkConnections: Math.min(config.DATABASE_BULK_CONNECTIONS ?? Math.max(1, Math.floor(config.DATABASE_POOL_MAX / 4)), config.DATABASE_POOL_MAX),
      prepare: preparesStatements(config.DATABASE_URL, config.DATABASE_PREPARE),
    });
  }
  const socketPath = process.env[ENGINE_SOCKET_ENV];
  if (socketPath) {
    // server.mjs runs the embedded database in a worker thread of its own and serves it on a Unix
    // socket: its queries no longer run on the thread that accepts and answers requests
    const db = openPostgres({ socketPath }, { max: 1, kind: "pglite", prepare: true });
    // this process (the engine thread's host) serves the folder: `npm run db:backup` must not open it
    await claimDataDir(path.resolve(config.DATA_DIR));
    await prepareEmbedded(db, config.SEED_DEMO);
    state.schemaCurrent = true;
    return db;
  }
  const dir = path.resolve(config.DATA_DIR);
  await mkdir(dir, { recursive: true });
  const { db } = await openPglite(path.join(dir, PGLITE_SUBDIR), { sharedBuffers: config.PGLITE_SHARED_BUFFERS });
  // `npm run db:backup` reads this to tell a running server's folder from a stopped one
  await claimDataDir(dir);
  await prepareEmbedded(db, config.SEED_DEMO);
  state.schemaCurrent = true;
  return db;
}

/**
 * The embedded database migrates at start, and loads the demo into an empty one when asked. Only
 * this process opens it, so a batch of interactions or a knowledge import it finds still being stored was left by a
 * process that stopped: it is given up before any request is served (lib/bulk/leftovers.ts).
 */
async function prepareEmbedded(db: Database, seedDemo: boolean) {
  await migrate(db);
  const { releaseWorkOfStoppedProcess } = await import("@/lib/bulk/leftovers");
  await releaseWorkOfStoppedProcess(db);
  if (seedDemo) {
    const { seedDemoIfEmpty } = await import("@/lib/demo/seed");
    await seedDemoIfEmpty(db);
  }
}

/**
 * Closes the process's database once every request is answered (server.mjs's graceful shutdown).
 * A later `getDatabase()` would open it again.
 */
export async function closeDatabase(): Promise<void> {
  const ready = state.ready;
  state.ready = undefined;
  if (!ready) return;
  const db = await ready.catch(() => undefined);
  await db?.close();
}

/** The embedded engine's thread under server.mjs (server/engine/index.mjs), for what only it can do. */
export interface EngineHost {
  /** A snapshot of the data directory (PGlite's dumpDataDir, run in the engine thread between two queries). */
  dumpDataDir(compression?: "gzip" | "none" | "auto"): Promise<{ name: string; data: Uint8Array }>;
}

/** The host of the embedded engine when server.mjs runs it in its own thread; undefined otherwise. */
export function engineHost(): EngineHost | undefined {
  return (globalThis as Record<string, unknown>)[SEAM_GLOBALS.engine] as EngineHost | undefined;
}

/** Thrown by `snapshotEmbedded` on a server database, which is backed up with its own tools. */
export class ServerDatabaseError extends Error {}

/**
 * A consistent snapshot of the embedded database as a stream of gzip'd tar bytes, taken while it
 * serves (writes wait for the moment the files are copied). A server database throws
 * `ServerDatabaseError`: back it up with pg_dump or the host's backups.
 */
export async function snapshotEmbedded(): Promise<ReadableStream<Uint8Array>> {
  const host = engineHost();
  if (host && !getConfig().DATABASE_URL) {
    // the engine thread copies its files between two statements; anything committed before is in it
    const { data } = await host.dumpDataDir("gzip");
    return new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(data);
        controller.close();
      },
    });
  }
  const db = await getDatabase();
  if (!db.snapshot) throw new ServerDatabaseError("The database is a PostgreSQL server (DATABASE_URL): back it up with pg_dump or your host's backups");
  return db.snapshot();
}

/** Tests install a fresh database per file. */
export function setDatabaseForTests(db: Database | undefined): void {
  state.ready = db ? Promise.resolve(db) : undefined;
  state.schemaCurrent = undefined;
  state.schemaCheck = undefined;
}

/**
 * Runs `fn` in one transaction as `caller`, under RLS. Every request-path query goes through here.
 * `lane` "bulk": one step of a long job (an import), which waits while requests wait for the database.
 */
export async function asCaller<T>(caller: Caller, fn: (tx: Queryable) => Promise<T>, options: { lane?: Lane } = {}): Promise<T> {
  if (options.lane === "bulk") requestTurnsBulk();
  return withClaims(await getDatabase(), claimsFor(caller), boundToRequest(fn), options.lane);
}

/**
 * The database as the owning role (bypasses RLS) for single statements that need no transaction:
 * each one commits on its own, without the BEGIN and COMMIT round trips (the key lookup that every
 * agent request makes).
 */
export async function asSystemStatements(): Promise<Queryable> {
  return getDatabase();
}

/**
 * Runs `fn` in one transaction as the owning role (bypasses RLS): sign-in lookups, seeding, jobs.
 * `lane` "bulk" for a step of a long job (lib/db/lanes.ts).
 */
export async function asSystem<T>(fn: (tx: Queryable) => Promise<T>, options: { lane?: Lane } = {}): Promise<T> {
  if (options.lane === "bulk") requestTurnsBulk();
  return (await getDatabase()).transaction(boundToRequest(fn), options.lane ? { lane: options.lane } : undefined);
}
