import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite/vector";
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
  return {
    kind: "pglite",
    query: (sql, params) => run(pg, sql, params),
    transaction: (fn, options) =>
      pg.transaction(async (tx) => {
        const handle: Queryable = {
          query: (sql, params) => run(tx, sql, params),
          exec: async (sql) => {
            await tx.exec(sql);
          },
        };
        if (options?.first) await handle.query(options.first.text, options.first.params);
        return fn(handle);
      }),
    exec: async (sql) => {
      await pg.exec(sql);
    },
    close: () => pg.close(),
    snapshot: () => snapshotPglite(pg),
  };
}
