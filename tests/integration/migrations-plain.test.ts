// The migrations alone make the database: applied one after another by plain psql (as Supabase's
// CLI applies supabase/migrations, and nothing else), they give exactly the schema that
// `npm run db:migrate` and the app's own start give. On a real PostgreSQL with a non-superuser
// owner (pg_dump compared) and on the embedded database (the catalogs compared).
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { listMigrations, migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import type { Database } from "@/lib/db/types";
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

/** A conversation and a memory naming people, written as the agent would. */
async function storeConversation(db: Database) {
  await db.exec(`insert into agents (id, name, kind, role) values ('aaaaaaaa-0000-4000-8000-00000000000a', 'Plain agent', 'internal', 'orchestrator')`);
  for (const [i, text] of ["Hello, Dana here", "Dana is moving to Lisbon", "When?", "Last Friday"].entries()) {
    await db.query(
      `insert into interactions (agent_id, channel, direction, speaker, content, occurred_at)
       values ('aaaaaaaa-0000-4000-8000-00000000000a', 'chat', $1, $2, $3, $4)`,
      [i % 2 ? "outbound" : "inbound", i % 2 ? "Agent" : "Dana Whitfield", text, new Date(Date.UTC(2025, 5, 1, 10, i)).toISOString()],
    );
  }
  await db.exec(`insert into memories (agent_id, tier, category, title, content, confidence)
                 values ('aaaaaaaa-0000-4000-8000-00000000000a', 'working', 'project', 'Moving', 'Priya Raman helps Dana with the move.', 0.9)`);
}

/** What the conversation index and the people vocabulary hold, by text rather than ids. */
async function indexed(db: Database) {
  return {
    documents: await db.query(
      // lengths and term weights are float sums, rounded: their last bit depends on the order they were added in
      `select i.content, p.content as prev, n.content as next, round(d.len::numeric, 3)::float8 as len, d.own_terms,
              (select c.content from interactions c where c.id = d.conversation_id) as conversation
         from interaction_search_docs d join interactions i on i.id = d.interaction_id
         left join interactions p on p.id = d.prev_id left join interactions n on n.id = d.next_id
        order by i.seq`,
    ),
    postings: await db.query(
      "select p.lexeme, round(p.tf::numeric, 3)::float8 as tf from interaction_postings p join interactions i on i.id = p.interaction_id order by i.seq, p.lexeme",
    ),
    // by name: a database built while the migrations left placeholders gets its people from their
    // backfills, one kind of name after another, not in the order they were heard
    people: await db.query("select name, source from agent_people order by lower(name), name"),
  };
}

describe.runIf(transport === "pglite")("the migrations executed one by one on the embedded database", () => {
  it("give the schema of the runner, and turn a database built while they left placeholders into what the runner built", async () => {
    const plain = await openPglite();
    const byRunner = await openPglite();
    try {
      const files = await listMigrations();
      // up to the last release, the migrations left placeholders: nothing indexed a new turn or
      // recorded a person
      for (const m of files.filter((f) => f.version <= ONE_SESSION_UNTIL)) await plain.db.exec(readFileSync(m.file, "utf8"));
      await storeConversation(plain.db);
      expect((await indexed(plain.db)).documents).toEqual([]);
      for (const m of files.filter((f) => f.version > ONE_SESSION_UNTIL)) await plain.db.exec(readFileSync(m.file, "utf8"));

      await migrate(byRunner.db);
      const withoutRecord = (lines: string[]) => lines.filter((l) => !l.includes("schema_migrations"));
      const lines = await schemaFingerprint(plain.db);
      expect(lines.length).toBeGreaterThan(500);
      expect(lines).toEqual(withoutRecord(await schemaFingerprint(byRunner.db)));

      await storeConversation(byRunner.db);
      const expected = await indexed(byRunner.db);
      expect(expected.documents).toHaveLength(4);
      expect(expected.people).toEqual(
        expect.arrayContaining([
          { name: "Dana Whitfield", source: "speaker" },
          { name: "Priya", source: "memory" },
        ]),
      );
      expect(await indexed(plain.db)).toEqual(expected);
    } finally {
      await plain.db.close();
      await byRunner.db.close();
    }
  }, 120_000);
});
