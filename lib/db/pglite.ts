import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite/vector";
import { Lanes } from "./lanes";
import { snapshotPglite } from "./snapshot";
import { parsePgTimestamp, PG_TIME_TYPES } from "./timestamps";
import type { Database, Queryable } from "./types";

/**
 * Opens the embedded database. `dataDir` undefined or "memory://" keeps it in memory (tests).
 * `sharedBuffers` (PGLITE_SHARED_BUFFERS) sizes Postgres' page cache inside the WebAssembly heap.
 */
export async function openPglite(
  dataDir?: string,
  opts: { sharedBuffers?: string; /** a snapshot to create the database from (restore); the folder must be empty */ loadDataDir?: Blob } = {},
): Promise<{ db: Database; pg: PGlite }> {
  const startParams = opts.sharedBuffers ? [...PGlite.defaultStartParams, "-c", `shared_buffers=${opts.sharedBuffers}`] : undefined;
  const pg = await PGlite.create(dataDir ?? "memory://", {
    extensions: { vector, pg_trgm },
    ...(startParams ? { startParams } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  return { db: wrapPglite(pg), pg };
}

/** Dates and times read for every year, as the server driver reads them (see parsePgTimestamp). */
const PARSERS = Object.fromEntries(PG_TIME_TYPES.map((type) => [type, parsePgTimestamp]));

export function wrapPglite(pg: PGlite): Database {
  const run = async <T>(q: Pick<PGlite, "query">, sql: string, params?: unknown[]) =>
    (await q.query<T>(sql, params as unknown[] | undefined, { parsers: PARSERS })).rows;
  // one session: bulk steps take turns between interactive work (lib/db/lanes.ts)
  const lanes = new Lanes({ bulkConnections: 1, yieldToRequests: true });
  const interactive = async <T>(work: () => Promise<T>) => {
    const done = lanes.interactive();
    try {
      return await work();
    } finally {
      done();
    }
  };
  const exec = async (sql: string) => {
    await pg.exec(sql);
  };
  const inTransaction = <T>(fn: (tx: Queryable) => Promise<T>, options: Parameters<Database["transaction"]>[1], started?: () => void) =>
    pg.transaction(async (tx) => {
      started?.();
      const handle: Queryable = {
        query: (sql, params) => run(tx, sql, params),
        exec: async (sql) => {
          await tx.exec(sql);
        },
      };
      if (options?.first) await handle.query(options.first.text, options.first.params);
      return fn(handle);
    });
  return {
    kind: "pglite",
    query: (sql, params) => interactive(() => run(pg, sql, params)),
    transaction: async (fn, options) => {
      if (options?.lane === "bulk") return lanes.bulk(() => inTransaction(fn, options));
      // an interactive transaction waits until PGlite runs it: bulk steps wait meanwhile
      const done = lanes.interactive();
      try {
        return await inTransaction(fn, options, done);
      } finally {
        done();
      }
    },
    bulk: (fn) => lanes.bulk(() => fn({ query: (sql, params) => run(pg, sql, params), exec })),
    exec: (sql) => interactive(() => exec(sql)),
    close: () => pg.close(),
    snapshot: () => snapshotPglite(pg),
  };
}
