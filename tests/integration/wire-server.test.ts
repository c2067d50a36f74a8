import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCheckpoints } from "../../server/engine/checkpoints.mjs";
import { serveWire, type WireServer } from "../../server/engine/wire.mjs";

// The wire server that puts the embedded database on a Unix socket for server.mjs: one Postgres
// session shared by the connections that take turns, so what one connection leaves behind (an open
// transaction, prepared statements, settings) must never reach the next one.
let dir: string;
let pg: PGlite;
let server: WireServer;
let socketPath: string;

/** Whether `query` is answered within `ms` (it goes on either way: it is awaited later). */
async function answeredWithin(query: PromiseLike<unknown>, ms: number): Promise<boolean> {
  let answered = false;
  void Promise.resolve(query).then(() => (answered = true), () => (answered = true));
  await new Promise((r) => setTimeout(r, ms));
  return answered;
}

const connect = () => postgres({ path: socketPath, username: "postgres", database: "postgres", max: 1, onnotice: () => {} });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "mhq-wire-"));
  pg = await PGlite.create();
  socketPath = path.join(dir, ".s.PGSQL.5432");
  server = await serveWire(pg, socketPath);
  await pg.exec("create table t (id int primary key, v text)");
});

afterAll(async () => {
  await server?.close();
  await pg?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the embedded database's wire server", () => {
  it("answers queries with parameters, pipelined queries in order, and errors without losing the connection", async () => {
    const sql = connect();
    try {
      expect(await sql.unsafe("select $1::int + 1 as n", [41])).toEqual([{ n: 42 }]);
      // issued together: postgres.js sends them in one write, and the server answers them in order
      const many = await Promise.all(Array.from({ length: 20 }, (_, i) => sql.unsafe("select $1::int as i", [i])));
      expect(many.map((r) => r[0]!.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      await expect(sql.unsafe("select 1 / 0")).rejects.toThrow(/division by zero/);
      expect(await sql.unsafe("select 'still here' as s")).toEqual([{ s: "still here" }]);
    } finally {
      await sql.end();
    }
  });

  it("rolls back what a connection left open when it goes away, and resets the session for the next", async () => {
    const first = connect();
    const reserved = await first.reserve();
    await reserved.unsafe("begin");
    await reserved.unsafe("insert into t values (1, 'uncommitted')");
    await reserved.unsafe("set application_name = 'left behind'");
    // the connection drops mid-transaction (no COMMIT, no Terminate)
    await first.end({ timeout: 0 });

    const next = connect();
    try {
      expect(await next.unsafe("select count(*)::int as n from t")).toEqual([{ n: 0 }]);
      const rows = await next.unsafe<{ name: string }[]>("select current_setting('application_name') as name");
      expect(rows[0]?.name).not.toBe("left behind");
    } finally {
      await next.end();
    }
  });

  it("serves a second connection only once the first has closed, never interleaving their transactions", async () => {
    const a = connect();
    const b = connect();
    try {
      const ra = await a.reserve();
      await ra.unsafe("begin");
      await ra.unsafe("insert into t values (2, 'a')");
      // b's query waits for its turn: it must not run inside a's open transaction
      const bRead = b.unsafe("select count(*)::int as n from t where id = 2");
      expect(await answeredWithin(bRead, 200)).toBe(false);
      await ra.unsafe("rollback");
      ra.release();
      await a.end();
      expect(await bRead).toEqual([{ n: 0 }]);
    } finally {
      await b.end();
    }
  });

  it("holds every message while an exclusive operation (a snapshot) runs", async () => {
    const sql = connect();
    try {
      let release!: () => void;
      const held = server.exclusive(() => new Promise<void>((r) => (release = r)));
      const q = sql.unsafe("insert into t values (3, 'after') returning id");
      expect(await answeredWithin(q, 200)).toBe(false);
      release();
      await held;
      expect(await q).toEqual([{ id: 3 }]);
    } finally {
      await sql.end();
    }
  });

  it("checkpoints once enough log is written, never inside an open transaction", async () => {
    // Postgres in PGlite has no checkpointer: the engine thread takes them (server/engine/checkpoints.mjs)
    const checkpoints = startCheckpoints(pg, server, { walBytes: 256 * 1024, checkMs: 20 });
    const sql = connect();
    try {
      const redo = async () => (await sql.unsafe("select redo_lsn::text as lsn from pg_control_checkpoint()"))[0]!.lsn as string;
      await checkpoints.checks();
      const first = await redo();
      // over 256 kB of log, inside a transaction that stays open across several checks
      const tx = await sql.reserve();
      await tx.unsafe("begin");
      await tx.unsafe("insert into t select 1000 + g, repeat(md5(g::text), 20) from generate_series(1, 2000) g");
      await checkpoints.checks();
      await checkpoints.checks();
      expect((await tx.unsafe("select redo_lsn::text as lsn from pg_control_checkpoint()"))[0]!.lsn).toBe(first);
      await tx.unsafe("commit");
      tx.release();
      await checkpoints.checks();
      await checkpoints.checks();
      expect(await redo()).not.toBe(first);
      const after = await redo();
      // nothing written since: no further checkpoint
      await checkpoints.checks();
      await checkpoints.checks();
      expect(await redo()).toBe(after);
    } finally {
      checkpoints.stop();
      await sql.unsafe("delete from t where id > 1000");
      await sql.end();
    }
  });
});
