import "server-only";
import path from "node:path";
import { mkdir } from "node:fs/promises";
import { getConfig } from "@/lib/config";
import type { Caller } from "@/lib/auth/caller";
import { claimsFor, withClaims } from "./caller";
import { migrate } from "./migrate";
import { openPglite } from "./pglite";
import { openPostgres } from "./postgres";
import { claimDataDir, PGLITE_SUBDIR } from "./snapshot";
import type { Database, Queryable } from "./types";

export type { Database, Queryable, StoredRow } from "./types";

interface DbState {
  ready?: Promise<Database>;
}

// One database per process, kept on globalThis so Next.js dev reloads reuse it.
const state: DbState = ((globalThis as Record<string, unknown>).__memoryHqDb ??= {}) as DbState;

/** The process-wide database: opened, migrated and (embedded, first start) seeded with the demo once. */
export function getDatabase(): Promise<Database> {
  state.ready ??= openConfigured().catch((err) => {
    state.ready = undefined;
    throw err;
  });
  return state.ready;
}

async function openConfigured(): Promise<Database> {
  const config = getConfig();
  if (config.DATABASE_URL) {
    // A server database is migrated by `npm run db:migrate` (or `supabase db push`), not at start.
    return openPostgres(config.DATABASE_URL, { max: config.DATABASE_POOL_MAX });
  }
  const dir = path.resolve(config.DATA_DIR);
  await mkdir(dir, { recursive: true });
  const { db } = await openPglite(path.join(dir, PGLITE_SUBDIR), { sharedBuffers: config.PGLITE_SHARED_BUFFERS });
  // `npm run db:backup` reads this to tell a running server's folder from a stopped one
  await claimDataDir(dir);
  await migrate(db);
  if (config.SEED_DEMO) {
    const { seedDemoIfEmpty } = await import("@/lib/demo/seed");
    await seedDemoIfEmpty(db);
  }
  return db;
}

/** Thrown by `snapshotEmbedded` on a server database, which is backed up with its own tools. */
export class ServerDatabaseError extends Error {}

/**
 * A consistent snapshot of the embedded database as a stream of gzip'd tar bytes, taken while it
 * serves (writes wait for the moment the files are copied). A server database throws
 * `ServerDatabaseError`: back it up with pg_dump or the host's backups.
 */
export async function snapshotEmbedded(): Promise<ReadableStream<Uint8Array>> {
  const db = await getDatabase();
  if (!db.snapshot) throw new ServerDatabaseError("The database is a PostgreSQL server (DATABASE_URL): back it up with pg_dump or your host's backups");
  return db.snapshot();
}

/** Tests install a fresh database per file. */
export function setDatabaseForTests(db: Database | undefined): void {
  state.ready = db ? Promise.resolve(db) : undefined;
}

/** Runs `fn` in one transaction as `caller`, under RLS. Every request-path query goes through here. */
export async function asCaller<T>(caller: Caller, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return withClaims(await getDatabase(), claimsFor(caller), fn);
}

/** Runs `fn` in one transaction as the owning role (bypasses RLS): sign-in lookups, seeding, jobs. */
export async function asSystem<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return (await getDatabase()).transaction(fn);
}
