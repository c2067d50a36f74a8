// A database created by an earlier release upgrades with `npm run db:migrate` to exactly the schema of
// a fresh install: on a real PostgreSQL (a non-superuser owner, pgvector created by the superuser,
// compared with pg_dump) and on the embedded database (compared through the catalogs).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "@/lib/db/pglite";
import type { Database } from "@/lib/db/types";
import { createServerDatabase, transport, type TestDatabase } from "../helpers/db";
import { schemaFingerprint } from "../helpers/schema-fingerprint";
import { adminUrlOf, differingLines, functionsWithAnotherBody, npmMigrate, pgDump } from "../helpers/schema-compare";

/**
 * Releases an upgrade must start from, until releases are tagged: the state before the lifecycle and
 * MCP work (12 migrations, no function files), and the last release whose runner applied the
 * function files and data moves that the migrations lacked; then the newest release tag (`v*`).
 */
const RELEASES = ["279945d", "76128f7"];
const root = process.cwd();
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

function previousReleases(): string[] {
  const tags = git("tag", "--list", "v*", "--sort=-v:refname", "--merged", "HEAD").split("\n").filter(Boolean);
  return [...RELEASES, ...tags.slice(0, 1)];
}

const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * Applies a release's migrations with that release's own runner, read from git: a database exactly
 * as that release's `npm run db:migrate` left it.
 */
async function migrateAsRelease(ref: string, db: Database): Promise<number> {
  const dir = tempDir("mhq-release-");
  execFileSync("sh", ["-c", `git archive ${ref} supabase lib/db/migrate.ts lib/db/types.ts | tar -x -C "${dir}"`], { cwd: root });
  const runner = (await import(/* @vite-ignore */ path.join(dir, "lib/db/migrate.ts"))) as {
    migrate: (db: Database, arg?: unknown) => Promise<unknown>;
  };
  // the runner took a migrations folder before it took options
  const takesOptions = git("show", `${ref}:lib/db/migrate.ts`).includes("opts: MigrateOptions");
  const supabase = path.join(dir, "supabase");
  const folders = {
    migrationsDir: path.join(supabase, "migrations"),
    schemaDir: path.join(supabase, "schema"),
    followupsDir: path.join(supabase, "followups"),
  };
  await runner.migrate(db, takesOptions ? folders : folders.migrationsDir);
  const [row] = await db.query<{ n: number }>("select count(*)::int as n from mhq.schema_migrations");
  return row?.n ?? 0;
}

/**
 * A transcript stored by an earlier release with one time on every turn: ids chosen so that id order
 * (how equal times were ordered then) is the reverse of the order the turns arrived in.
 */
const TIED = ["ffffffff-0000-4000-8000-000000000001", "eeeeeeee-0000-4000-8000-000000000002", "dddddddd-0000-4000-8000-000000000003", "cccccccc-0000-4000-8000-000000000004"];
async function storeTiedTranscript(db: Database) {
  await db.exec(`insert into agents (id, name, kind, role) values ('aaaaaaaa-0000-4000-8000-000000000000', 'Upgrade agent', 'internal', 'orchestrator')`);
  for (const [i, id] of TIED.entries()) {
    await db.query(
      `insert into interactions (id, agent_id, channel, direction, speaker, content, occurred_at, created_at)
       values ($1, 'aaaaaaaa-0000-4000-8000-000000000000', 'chat', 'inbound', 'Dana', $2, '2025-06-01T10:00:00Z', $3)`,
      [id, `turn ${i} of the imported transcript`, new Date(Date.UTC(2025, 5, 1, 10, 0, i)).toISOString()],
    );
  }
}

/** A published knowledge entry and an archived one, written by the earlier release. */
async function storeKnowledge(db: Database) {
  await db.exec(`insert into knowledge_entries (title, content, category, tags, status, created_by, updated_by) values
    ('Gravelwick intake checklist', 'What to ask first.', 'procedure', '{ferrolume}', 'published', 'upgrade', 'upgrade'),
    ('Quorvane retired policy', 'No longer used.', 'procedure', '{}', 'archived', 'upgrade', 'upgrade')`);
}

/** The upgrade counted the published entry's title and tag words for the spelling check, not the archived one's. */
async function expectKnowledgeWordsCounted(db: Database) {
  const rows = await db.query<{ word: string; entries: number }>(
    "select word, entries from knowledge_vocabulary where word in ('gravelwick', 'intake', 'ferrolume', 'quorvane') order by word",
  );
  expect(rows).toEqual([
    { word: "ferrolume", entries: 1 },
    { word: "gravelwick", entries: 1 },
    { word: "intake", entries: 1 },
  ]);
}

const MIXED = {
  agent: "bbbbbbbb-0000-4000-8000-000000000000",
  client: "cccccccc-0000-4000-8000-000000000000",
  note: "dddddddd-0000-4000-8000-0000000000a1",
  clientTurn: "dddddddd-0000-4000-8000-0000000000a2",
};

/**
 * A thread of an internal agent (a release that had threads) mixing an HQ-internal note with a
 * client's turn: that release indexed the client's turn with the note's words.
 */
async function storeMixedThread(db: Database): Promise<boolean> {
  const [has] = await db.query<{ yes: boolean }>(
    "select exists (select 1 from information_schema.columns where table_name = 'interactions' and column_name = 'conversation_key') as yes",
  );
  if (!has?.yes) return false;
  await db.exec(`insert into agents (id, name, kind, role) values ('${MIXED.agent}', 'Mixed thread agent', 'internal', 'orchestrator');
                 insert into clients (id, name, slug) values ('${MIXED.client}', 'Mixed client', 'mixed-client')`);
  await db.query(
    `insert into interactions (id, agent_id, client_id, channel, direction, content, occurred_at, conversation_key)
     values ($1, $3, null, 'chat', 'inbound', 'Internal note: the Zorblax margin', '2025-06-02T10:00:00Z', 'mixed'),
            ($2, $3, $4, 'chat', 'inbound', 'Hello, this is the front desk', '2025-06-02T10:01:00Z', 'mixed')`,
    [MIXED.note, MIXED.clientTurn, MIXED.agent, MIXED.client],
  );
  const [leak] = await db.query<{ n: number }>("select count(*)::int as n from interaction_postings where interaction_id = $1 and lexeme = 'zorblax'", [MIXED.clientTurn]);
  expect(leak!.n, "the earlier release indexed the client's turn with the note's words").toBe(1);
  return true;
}

/** After the upgrade the client's turn is ranked only with its client's turns, and the statistics count that. */
async function expectThreadSplit(db: Database) {
  const docs = await db.query<{ id: string; prev: string | null; next: string | null; label: string }>(
    "select interaction_id as id, prev_id as prev, next_id as next, conversation_id::text as label from interaction_search_docs where interaction_id = any($1::uuid[]) order by 1",
    [[MIXED.note, MIXED.clientTurn]],
  );
  expect(docs).toEqual([
    { id: MIXED.note, prev: null, next: null, label: MIXED.note },
    { id: MIXED.clientTurn, prev: null, next: null, label: MIXED.clientTurn },
  ]);
  const words = await db.query<{ lexeme: string }>("select lexeme from interaction_postings where interaction_id = $1", [MIXED.clientTurn]);
  expect(words.map((w) => w.lexeme)).not.toContain("zorblax");
  const stats = await db.query<{ kind: string; df: number }>(
    `select scope_kind as kind, df from interaction_term_stats
      where lexeme = 'zorblax' and scope_id = any($1::uuid[]) order by 1`,
    [[MIXED.agent, MIXED.client]],
  );
  expect(stats).toEqual([{ kind: "agent", df: 1 }]);
}

/** A turn without a speaker, stored beside the transcript (after it, so its order is not disturbed). */
const UNSPOKEN = "bbbbbbbb-0000-4000-8000-0000000000b1";

/**
 * Vectors on the stored turns, as the earlier release's writes left them (of the width its column
 * takes), and a turn without a speaker with one: the upgrade clears a vector only where the turn's
 * searched text changed.
 */
async function storeVectors(db: Database) {
  await db.query(
    `insert into interactions (id, agent_id, channel, direction, content, occurred_at)
     values ($1, 'aaaaaaaa-0000-4000-8000-000000000000', 'chat', 'outbound', 'A note without a speaker, for Pellworth', '2025-06-03T10:00:00Z')`,
    [UNSPOKEN],
  );
  const [col] = await db.query<{ dims: number }>(
    "select atttypmod as dims from pg_attribute where attrelid = 'interactions'::regclass and attname = 'embedding'",
  );
  const dims = col!.dims > 0 ? col!.dims : 3;
  await db.query(`update interactions set embedding = array_fill(0.1::real, array[${dims}])::vector where id = any($1::uuid[])`, [[...TIED, UNSPOKEN]]);
}

/**
 * After the upgrade a turn recorded as the words alone is searched as its speaker's words: Dana's
 * turns are found by "Dana" (the ranking's postings, their statistics, the transcript search), and
 * their vectors, made from the words alone, are cleared for the re-embedding; the turn without a
 * speaker keeps its vector.
 */
async function expectSpeakerIndexed(db: Database) {
  const [postings] = await db.query<{ n: number }>(
    "select count(*)::int as n from interaction_postings where interaction_id = any($1::uuid[]) and lexeme = 'dana'",
    [TIED],
  );
  expect(postings!.n).toBe(TIED.length);
  const [df] = await db.query<{ df: number }>(
    "select df from interaction_term_stats where scope_kind = 'agent' and scope_id = 'aaaaaaaa-0000-4000-8000-000000000000' and lexeme = 'dana'",
  );
  expect(df?.df).toBe(TIED.length);
  const [fts] = await db.query<{ n: number }>(
    "select count(*)::int as n from interactions where id = any($1::uuid[]) and fts @@ to_tsquery('english', 'dana')",
    [TIED],
  );
  expect(fts!.n).toBe(TIED.length);
  const vectors = await db.query<{ id: string }>("select id from interactions where id = any($1::uuid[]) and embedding is not null", [[...TIED, UNSPOKEN]]);
  expect(vectors.map((v) => v.id)).toEqual([UNSPOKEN]);
}

/**
 * After the upgrade the names the stored turns mention inside a sentence are among the agent's
 * people, beside its speaker, so the trigger hears them.
 */
async function expectMentionsHeard(db: Database) {
  const people = await db.query<{ name: string; source: string }>(
    "select name, source from agent_people where agent_id = 'aaaaaaaa-0000-4000-8000-000000000000' order by lower(name)",
  );
  expect(people).toEqual([
    { name: "Dana", source: "speaker" },
    { name: "Pellworth", source: "mention" },
  ]);
}

/** After the upgrade the ranking's neighbours follow the order the turns arrived in (seq). */
async function expectArrivalOrder(db: Database) {
  const rows = await db.query<{ id: string; prev: string | null; next: string | null }>(
    `select i.id, d.prev_id as prev, d.next_id as next from interactions i
       join interaction_search_docs d on d.interaction_id = i.id where i.id = any($1::uuid[]) order by i.seq`,
    [TIED],
  );
  expect(rows.map((r) => r.id)).toEqual(TIED);
  rows.forEach((r, i) => expect(r).toMatchObject({ prev: TIED[i - 1] ?? null, next: TIED[i + 1] ?? null }));
}

describe.runIf(transport === "postgres")("upgrade on a real PostgreSQL", () => {
  const dbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.close();
  });

  // one fresh install, made by `npm run db:migrate`, for every release to be compared with
  let fresh: Promise<TestDatabase> | undefined;
  const freshInstall = () =>
    (fresh ??= (async () => {
      const db = await createServerDatabase({ migrate: false });
      dbs.push(db);
      npmMigrate({ DATABASE_URL: db.url! });
      return db;
    })());

  it.each(previousReleases())("a database created by release %s upgrades to a fresh install's schema", async (ref) => {
    const old = await createServerDatabase({ migrate: false });
    dbs.push(old);
    const pool = old.connect!(1);
    expect(await migrateAsRelease(ref, pool)).toBeGreaterThan(0);
    await storeTiedTranscript(pool);
    await storeKnowledge(pool);
    const mixed = await storeMixedThread(pool);
    await storeVectors(pool);
    await pool.close();
    expect(npmMigrate({ DATABASE_URL: old.url! })).toMatch(/Applied \d+ migration/);
    await expectArrivalOrder(old.db);
    await expectSpeakerIndexed(old.db);
    await expectMentionsHeard(old.db);
    await expectKnowledgeWordsCounted(old.db);
    if (mixed) await expectThreadSplit(old.db);

    const fresh = await freshInstall();

    // same owner role in both, so ownership and privileges are compared too
    const upgraded = pgDump(adminUrlOf(old.url!));
    expect(upgraded.length).toBeGreaterThan(10_000);
    expect(differingLines(upgraded, pgDump(adminUrlOf(fresh.url!))), "pg_dump --schema-only lines that differ").toBe(0);
    expect(await functionsWithAnotherBody(old.db, fresh.db)).toEqual([]);
    expect(await schemaFingerprint(old.db)).toEqual(await schemaFingerprint(fresh.db));
    // a second run finds nothing to do
    expect(npmMigrate({ DATABASE_URL: old.url! })).toContain("Database is up to date.");
  }, 300_000);
});

describe.runIf(transport === "pglite")("upgrade of the embedded database", () => {
  // one fresh install, made by `npm run db:migrate`, for every release to be compared with
  let freshDir: string | undefined;
  const freshInstall = () => {
    if (!freshDir) {
      freshDir = tempDir("mhq-upgrade-fresh-");
      npmMigrate({ DATA_DIR: freshDir });
    }
    return freshDir;
  };

  it.each(previousReleases())("a data folder created by release %s upgrades to a fresh install's schema", async (ref) => {
    const oldDir = tempDir("mhq-upgrade-old-");
    const old = await openPglite(path.join(oldDir, "pglite"));
    expect(await migrateAsRelease(ref, old.db)).toBeGreaterThan(0);
    await storeTiedTranscript(old.db);
    await storeKnowledge(old.db);
    const mixed = await storeMixedThread(old.db);
    await storeVectors(old.db);
    await old.db.close();
    expect(npmMigrate({ DATA_DIR: oldDir })).toMatch(/Applied \d+ migration/);

    const upgraded = await openPglite(path.join(oldDir, "pglite"));
    const fresh = await openPglite(path.join(freshInstall(), "pglite"));
    try {
      await expectArrivalOrder(upgraded.db);
      await expectSpeakerIndexed(upgraded.db);
      await expectMentionsHeard(upgraded.db);
      await expectKnowledgeWordsCounted(upgraded.db);
      if (mixed) await expectThreadSplit(upgraded.db);
      const lines = await schemaFingerprint(upgraded.db);
      expect(lines.length).toBeGreaterThan(500);
      expect(lines).toEqual(await schemaFingerprint(fresh.db));
    } finally {
      await upgraded.db.close();
      await fresh.db.close();
    }
  }, 300_000);
});
