import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { openPostgres, preparesStatements } from "@/lib/db/postgres";
import type { Database, Queryable } from "@/lib/db/types";
import { serveWire } from "../../server/engine/wire.mjs";
import { OWNER_ROLE, ownerUrl, testServerUrl } from "./postgres-server";

export interface TestDatabase {
  db: Database;
  /** The database's URL as its (non-superuser) owner (real PostgreSQL only): for app servers in tests. */
  url?: string;
  /** Opens another pool on the same database (real PostgreSQL only): true concurrency in tests. */
  connect?(max?: number): Database;
  close(): Promise<void>;
}

export type TestTransport = "pglite" | "socket" | "postgres";

export const transport: TestTransport =
  process.env.TEST_TRANSPORT === "socket" ? "socket" : process.env.TEST_TRANSPORT === "postgres" ? "postgres" : "pglite";

/**
 * A fresh, migrated, empty database.
 * - pglite: the embedded database in process.
 * - socket: the embedded database served on a loopback port and reached through the production
 *   `DATABASE_URL` driver (postgres.js), so the wire-protocol path — migrations included — is tested.
 * - postgres: a new database on a real PostgreSQL server (TEST_DATABASE_URL, an admin URL), with the
 *   extension created by the superuser and the migrations applied by a non-superuser owner, the way
 *   Supabase and managed hosts work. Only this transport runs statements truly concurrently.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (transport === "postgres") return createServerDatabase();
  const { db: local, pg } = await openPglite();
  if (transport !== "socket") {
    await migrate(local);
    return { db: local, close: () => local.close() };
  }
  // the production server's wire server (server.mjs serves the embedded database with it)
  const server = await serveWire(pg, { host: "127.0.0.1", port: 0 });
  const { port } = server.address as AddressInfo;
  // as server.mjs opens it: one connection, statements prepared
  const remote = openPostgres(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`, { max: 1, prepare: true });
  await migrate(remote);
  return {
    db: remote,
    close: async () => {
      await remote.close();
      await server.close();
      await pg.close();
    },
  };
}

/**
 * A new database on the real server, owned by the non-superuser owner role, with the extension
 * created by the superuser; migrated unless `migrate: false` (a test that runs `npm run db:migrate`).
 */
export async function createServerDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = testServerUrl();
  const name = `mhq_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name} owner ${OWNER_ROLE}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const superInDb = postgres(withDatabase(adminUrl, name), { max: 1, onnotice: () => {} });
  try {
    await superInDb.unsafe("create extension if not exists vector");
  } finally {
    await superInDb.end({ timeout: 5 });
  }
  const url = withDatabase(ownerUrl(adminUrl), name);
  const pools: Database[] = [];
  const connect = (max = 10) => {
    // as the app opens DATABASE_URL: a direct connection prepares its statements
    const db = openPostgres(url, { max, prepare: preparesStatements(url) });
    pools.push(db);
    return db;
  };
  const db = connect(10);
  if (opts.migrate !== false) await migrate(db);
  return {
    db,
    url,
    connect,
    close: async () => {
      await Promise.all(pools.map((p) => p.close()));
      const drop = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await drop.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await drop.end({ timeout: 5 });
      }
    },
  };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Runs `fn` while a test-only BEFORE trigger on `table` sleeps `seconds` for each row that `when`
 * (a condition on `new`, or on the session's settings) holds for, so a race can be held open: a
 * trigger named `aa_…` runs before the table's own triggers, `zz_…` after them. Dropped afterwards.
 */
export async function withSlowRows<T>(
  db: Queryable,
  p: { name: string; table: string; event: "insert" | "update" | "delete"; when: string; seconds: number },
  fn: () => Promise<T>,
): Promise<T> {
  await db.query(`create or replace function public.${p.name}() returns trigger language plpgsql as $$
    begin
      if ${p.when} then perform pg_sleep(${p.seconds}); end if;
      return ${p.event === "delete" ? "old" : "new"};
    end $$`);
  await db.query(`create trigger ${p.name} before ${p.event} on ${p.table} for each row execute function public.${p.name}()`);
  try {
    return await fn();
  } finally {
    await db.query(`drop trigger ${p.name} on ${p.table}`);
    await db.query(`drop function public.${p.name}()`);
  }
}
