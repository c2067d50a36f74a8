import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listMigrations, migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import type { Database } from "@/lib/db/types";
import { createServerDatabase, transport, type TestDatabase } from "../helpers/db";

// The data a migration moves by hand, beside the definitions it replaces: a database migrated up to the
// migration before, given the rows an earlier release left, then migrated to this release. On the
// embedded database here and, with TEST_TRANSPORT=postgres, on a real server as its non-superuser owner.

let opened: TestDatabase | undefined;
let dir: string | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A new database with the migrations before `version` applied. */
async function migratedUpTo(version: string): Promise<Database> {
  let db: Database;
  if (transport === "postgres") {
    opened = await createServerDatabase({ migrate: false });
    db = opened.db;
  } else {
    db = (await openPglite()).db;
    opened = { db, close: () => db.close() };
  }
  dir = mkdtempSync(path.join(tmpdir(), "mhq-moves-"));
  for (const m of await listMigrations()) if (m.version < version) cpSync(m.file, path.join(dir, path.basename(m.file)));
  await migrate(db, { migrationsDir: dir });
  return db;
}

describe(`migrations' data moves (${transport === "postgres" ? "PostgreSQL" : "embedded"})`, () => {
  it("20261210100012: the people earlier opt-out erasures renamed '[erased]' leave the agents' vocabularies, the others stay", async () => {
    const db = await migratedUpTo("20261210100012");
    await db.exec(`insert into agents (id, name, kind, role) values
      ('aaaaaaaa-0000-4000-8000-0000000000e1', 'Erasure agent one', 'internal', 'orchestrator'),
      ('aaaaaaaa-0000-4000-8000-0000000000e2', 'Erasure agent two', 'internal', 'orchestrator')`);
    await db.exec(`insert into agent_people (agent_id, name, source) values
      ('aaaaaaaa-0000-4000-8000-0000000000e1', '[erased]', 'speaker'),
      ('aaaaaaaa-0000-4000-8000-0000000000e1', 'Omar Reyes', 'speaker'),
      ('aaaaaaaa-0000-4000-8000-0000000000e2', '[erased]', 'memory')`);
    await migrate(db);
    const people = await db.query<{ agent_id: string; name: string }>("select agent_id, name from agent_people order by agent_id, name");
    expect(people).toEqual([{ agent_id: "aaaaaaaa-0000-4000-8000-0000000000e1", name: "Omar Reyes" }]);
  });

  it("20261210100015: notes and events an earlier release filed against another client's contact keep their writer's client, without the link", async () => {
    const db = await migratedUpTo("20261210100015");
    await db.exec(`insert into clients (id, name, slug) values
      ('cccccccc-0000-4000-8000-0000000000a1', 'Client A', 'client-a'),
      ('cccccccc-0000-4000-8000-0000000000b1', 'Client B', 'client-b')`);
    await db.exec(`insert into agents (id, name, kind, role, client_id) values
      ('aaaaaaaa-0000-4000-8000-0000000000f1', 'Field agent of A', 'field', 'orchestrator', 'cccccccc-0000-4000-8000-0000000000a1')`);
    await db.exec(`insert into contacts (id, client_id, name) values
      ('dddddddd-0000-4000-8000-0000000000a1', 'cccccccc-0000-4000-8000-0000000000a1', 'Contact of A'),
      ('dddddddd-0000-4000-8000-0000000000b1', 'cccccccc-0000-4000-8000-0000000000b1', 'Contact of B')`);
    for (const table of ["agent_notes", "event_log"]) {
      const columns = table === "agent_notes" ? "content" : "kind, summary";
      const values = (text: string) => (table === "agent_notes" ? `'${text}'` : `'tool.sms_send', '${text}'`);
      await db.exec(`insert into ${table} (agent_id, client_id, contact_id, ${columns}) values
        ('aaaaaaaa-0000-4000-8000-0000000000f1', 'cccccccc-0000-4000-8000-0000000000a1', 'dddddddd-0000-4000-8000-0000000000a1', ${values("own")}),
        ('aaaaaaaa-0000-4000-8000-0000000000f1', 'cccccccc-0000-4000-8000-0000000000a1', 'dddddddd-0000-4000-8000-0000000000b1', ${values("planted")})`);
    }
    await migrate(db);
    for (const [table, text] of [["agent_notes", "content"], ["event_log", "summary"]] as const) {
      const rows = await db.query(`select ${text} as text, client_id, contact_id from ${table} order by ${text}`);
      expect(rows, table).toEqual([
        { text: "own", client_id: "cccccccc-0000-4000-8000-0000000000a1", contact_id: "dddddddd-0000-4000-8000-0000000000a1" },
        { text: "planted", client_id: "cccccccc-0000-4000-8000-0000000000a1", contact_id: null },
      ]);
    }
  });

  it("20261210100017: core and working memories lose the surprise scores earlier releases kept; learning ones keep theirs", async () => {
    const db = await migratedUpTo("20261210100017");
    await db.exec(`insert into agents (id, name, kind, role) values ('aaaaaaaa-0000-4000-8000-0000000000e1', 'Writer', 'internal', 'specialist')`);
    await db.exec(`insert into memories (agent_id, tier, category, title, confidence, surprise_score) values
      ('aaaaaaaa-0000-4000-8000-0000000000e1', 'core', 'procedure', 'core one', 0.9, 0.7),
      ('aaaaaaaa-0000-4000-8000-0000000000e1', 'working', 'thread', 'working one', 0.9, 0.3),
      ('aaaaaaaa-0000-4000-8000-0000000000e1', 'learning', 'lesson', 'learning one', 0.9, 0.6)`);
    await migrate(db);
    expect(await db.query(`select title, surprise_score from memories order by title`)).toEqual([
      { title: "core one", surprise_score: null },
      { title: "learning one", surprise_score: 0.6 },
      { title: "working one", surprise_score: null },
    ]);
  });
});
