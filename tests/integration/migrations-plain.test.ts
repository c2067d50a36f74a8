// The migrations alone make the database: applied one after another by plain psql (as Supabase's
// CLI applies supabase/migrations, and nothing else), they give exactly the schema that
// `npm run db:migrate` and the app's own start give. On a real PostgreSQL with a non-superuser
// owner (pg_dump compared) and on the embedded database (the catalogs compared).
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { listMigrations, migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { createServerDatabase, transport, type TestDatabase } from "../helpers/db";
import { schemaFingerprint } from "../helpers/schema-fingerprint";
import { adminUrlOf, differingLines, functionsWithAnotherBody, npmMigrate, pgDump, psqlFiles } from "../helpers/schema-compare";

/**
 * The newest migration of the release before migrations carried every function. Up to it, files are
 * applied in one session, as Supabase's CLI applies all pending migrations on one connection:
 * 20261121140100 puts pgvector's `hnsw.ef_search` on a function and, for a non-superuser, relies on
 * the library an earlier file of the same session loaded. Every later migration must stand alone: it
 * gets a session of its own, as an upgrade that applies only it does.
 */
const ONE_SESSION_UNTIL = "20261202100000";

describe.runIf(transport === "postgres")("the migrations applied with psql on a real PostgreSQL", () => {
  const dbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.close();
  });

  it("give the schema of npm run db:migrate and of the app's start, to the line and to the function", async () => {
    const [plain, byNpm, byApp] = [
      await createServerDatabase({ migrate: false }),
      await createServerDatabase({ migrate: false }),
      await createServerDatabase(),
    ];
    dbs.push(plain, byNpm, byApp);
    const files = (await listMigrations()).map((m) => ({ version: m.version, file: m.file }));
    psqlFiles(plain.url!, files.filter((f) => f.version <= ONE_SESSION_UNTIL).map((f) => f.file));
    for (const f of files.filter((f) => f.version > ONE_SESSION_UNTIL)) psqlFiles(plain.url!, [f.file]);
    npmMigrate({ DATABASE_URL: byNpm.url! });

    const dump = (d: TestDatabase) => pgDump(adminUrlOf(d.url!), { withoutRunnerRecord: true });
    const plainDump = dump(plain);
    expect(plainDump.length).toBeGreaterThan(10_000);
    for (const other of [byNpm, byApp]) {
      expect(differingLines(plainDump, dump(other)), "pg_dump --schema-only lines that differ").toBe(0);
      expect(await functionsWithAnotherBody(plain.db, other.db)).toEqual([]);
    }
  }, 300_000);
});

describe.runIf(transport === "pglite")("the migrations executed one by one on the embedded database", () => {
  it("give the schema of the runner", async () => {
    const plain = await openPglite();
    const byRunner = await openPglite();
    try {
      for (const m of await listMigrations()) await plain.db.exec(readFileSync(m.file, "utf8"));
      await migrate(byRunner.db);
      const withoutRecord = (lines: string[]) => lines.filter((l) => !l.includes("schema_migrations"));
      const lines = await schemaFingerprint(plain.db);
      expect(lines.length).toBeGreaterThan(500);
      expect(lines).toEqual(withoutRecord(await schemaFingerprint(byRunner.db)));
    } finally {
      await plain.db.close();
      await byRunner.db.close();
    }
  }, 120_000);
});
