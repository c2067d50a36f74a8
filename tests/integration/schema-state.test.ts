import { afterEach, describe, expect, it } from "vitest";
import { listMigrations, migrate, schemaState } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import type { Database } from "@/lib/db/types";
import { createServerDatabase, transport, type TestDatabase } from "../helpers/db";

// A server database is never migrated by the app: it reads where the database stands from the records
// of whoever applied the migrations (its runner, Supabase's CLI) and, until it is this release's,
// answers 503 (lib/db/index.ts). On the embedded database here and, with TEST_TRANSPORT=postgres, on a
// real server as its non-superuser owner.

let opened: TestDatabase | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

async function emptyDatabase(): Promise<Database> {
  if (transport === "postgres") {
    opened = await createServerDatabase({ migrate: false });
    return opened.db;
  }
  const { db } = await openPglite();
  opened = { db, close: () => db.close() };
  return db;
}

describe(`where a database stands against this release's migrations (${transport === "postgres" ? "PostgreSQL" : "embedded"})`, () => {
  it("an empty database has no schema: every migration is pending", async () => {
    const db = await emptyDatabase();
    const all = (await listMigrations()).map((m) => m.version);
    expect(await schemaState(db)).toEqual({ missing: true, pending: all });
  });

  it("the runner's record: current once migrated, and the versions it does not list are pending", async () => {
    const db = await emptyDatabase();
    await migrate(db);
    expect(await schemaState(db)).toEqual({ missing: false, pending: [] });
    const versions = (await listMigrations()).map((m) => m.version);
    const [newest, before] = [versions.at(-1)!, versions.at(-2)!];
    await db.query("delete from mhq.schema_migrations where version = any($1)", [[newest, before]]);
    expect(await schemaState(db)).toEqual({ missing: false, pending: [before, newest] });
  });

  it("Supabase's CLI's record counts as well, and files applied with psql (no record) count as current", async () => {
    const db = await emptyDatabase();
    await migrate(db);
    const versions = (await listMigrations()).map((m) => m.version);
    await db.exec("drop table mhq.schema_migrations");
    // applied with plain psql: the tables, and nobody's record
    expect(await schemaState(db)).toEqual({ missing: false, pending: [] });
    // as Supabase's CLI records what it applied
    await db.exec("create schema supabase_migrations; create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text)");
    await db.query("insert into supabase_migrations.schema_migrations (version) select unnest($1::text[])", [versions.slice(0, -1)]);
    expect(await schemaState(db)).toEqual({ missing: false, pending: [versions.at(-1)] });
    await db.query("insert into supabase_migrations.schema_migrations (version) values ($1)", [versions.at(-1)]);
    expect(await schemaState(db)).toEqual({ missing: false, pending: [] });
  });
});
