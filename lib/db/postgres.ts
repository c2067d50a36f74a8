import postgres from "postgres";
import { Lanes } from "./lanes";
import { parsePgTimestamp, PG_TIME_TYPES } from "./timestamps";
import type { Database, Queryable } from "./types";

/** Where the database listens: a URL, or the Unix socket of the embedded engine (server.mjs). */
export type PostgresTarget = string | { socketPath: string };

/**
 * The ports of the transaction-mode poolers people connect through: Supabase's (6543) and
 * PgBouncer's default (6432). Such a pooler hands each transaction to any server connection, so a
 * statement prepared on one is missing on the next.
 */
const TRANSACTION_POOLER_PORTS = new Set(["6543", "6432"]);

/**
 * Whether statements on `url` are prepared (DATABASE_PREPARE): `auto` prepares them unless the URL
 * names a transaction-mode pooler's port; `true`/`false` decide outright (`false` for a pooler on
 * another port).
 */
export function preparesStatements(url: string, setting: "auto" | boolean = "auto"): boolean {
  if (setting !== "auto") return setting;
  try {
    return !TRANSACTION_POOLER_PORTS.has(new URL(url).port);
  } catch {
    return false; // not a URL postgres.js would read either: stay with the form every server takes
  }
}

/**
 * Any Postgres ≥ 15 with pgvector (Supabase included) through postgres.js. Statements are prepared
 * when `prepare` says so (see `preparesStatements`): never behind a transaction-mode pooler, where
 * the app still works with them off. The embedded engine, when
 * server.mjs runs it in its own thread, is reached the same way over a Unix socket (`kind` "pglite":
 * one connection, one transaction at a time, no autovacuum; `prepare`: its statements are prepared).
 */
export function openPostgres(
  target: PostgresTarget,
  options: {
    max?: number;
    kind?: Database["kind"];
    /** Named prepared statements: for a direct connection or the embedded engine's own server, never behind a transaction-mode pooler. */
    prepare?: boolean;
    /** Connections bulk work may hold at once (DATABASE_BULK_CONNECTIONS; lib/db/lanes.ts); default a quarter of `max`, at least 1. */
    bulkConnections?: number;
  } = {},
): Database {
  // Without prepared statements postgres.js asks for a statement's parameter types in a round trip
  // of its own before running it, every time; prepared, a repeat is one round trip.
  const prepare = options.prepare ?? false;
  const settings: postgres.Options<Record<string, postgres.PostgresType>> = {
    max: options.max ?? 10,
    prepare, // and per statement below (`unsafe` defaults to unprepared)
    onnotice: () => {},
    types: {
      // int8 (counts, sums) as JS numbers, matching the embedded driver
      bigint: { to: 20, from: [20], parse: (x: string) => Number(x), serialize: (x: number) => String(x) },
      // timestamps given as text (cursors, `now` overrides) pass through verbatim: postgres.js would
      // otherwise round them through a JS Date and drop the microseconds a keyset cursor relies on;
      // read back for every year (see parsePgTimestamp)
      date: {
        to: 1184,
        from: [...PG_TIME_TYPES],
        parse: parsePgTimestamp,
        serialize: (x: unknown) => (x instanceof Date ? x.toISOString() : String(x)),
      },
      // queries pass JSON as text ($1::jsonb, JSON.stringify'd), as the embedded driver expects;
      // without this postgres.js would encode that text a second time into a JSON string
      json: {
        to: 114,
        from: [114, 3802],
        parse: (x: string) => JSON.parse(x),
        serialize: (x: unknown) => (typeof x === "string" ? x : JSON.stringify(x)),
      },
    },
  };
  const sql =
    typeof target === "string"
      ? postgres(target, settings)
      : postgres({ ...settings, path: target.socketPath, username: "postgres", database: "postgres" });
  const run = async <T>(q: postgres.Sql | postgres.ReservedSql, text: string, params?: unknown[]) =>
    (await q.unsafe(text, (params ?? []) as postgres.ParameterOrJSON<never>[], { prepare })) as unknown as T[];
  const max = settings.max ?? 10;
  // the embedded engine (server.mjs serves it on a socket) has one connection: bulk steps there wait
  // for requests in progress, as in process; a server's requests have connections of their own
  const lanes = new Lanes({ bulkConnections: options.bulkConnections ?? Math.max(1, Math.floor(max / 4)), yieldToRequests: options.kind === "pglite" });
  /** An interactive statement counts as waiting until it is answered (it is short). */
  const interactive = async <T>(work: () => Promise<T>) => {
    const done = lanes.interactive();
    try {
      return await work();
    } finally {
      done();
    }
  };
  /** A connection of the pool: an interactive caller counts as waiting until it has one. */
  const reserve = async (lane: "interactive" | "bulk") => {
    if (lane === "bulk") return sql.reserve();
    const done = lanes.interactive();
    try {
      return await sql.reserve();
    } finally {
      done();
    }
  };
  const direct = (): Queryable => ({
    query: (text, params) => run(sql, text, params),
    exec: async (text) => {
      await sql.unsafe(text).simple();
    },
  });
  const transaction: Database["transaction"] = async (fn, txOptions) => {
    if (txOptions?.lane === "bulk") return lanes.bulk(() => inTransaction(fn, txOptions, "bulk"));
    return inTransaction(fn, txOptions, "interactive");
  };
  const inTransaction = async <T>(fn: (tx: Queryable) => Promise<T>, txOptions: Parameters<Database["transaction"]>[1], lane: "interactive" | "bulk") => {
    // a reserved connection rather than sql.begin: BEGIN and the first statement (the caller's
    // claims) go out together, one round trip instead of two for every request
    const conn = await reserve(lane);
    try {
      const first = txOptions?.first;
      // postgres.js sends a query once it is awaited or executed: BEGIN is started explicitly
      // so that it goes out first. `fn` starts at once: its first statement follows BEGIN and the
      // settings on the same connection, in the same round trip, and Postgres runs them in order.
      // Had BEGIN or the settings failed, the transaction is aborted and every statement of `fn`
      // fails with it; the error reported is theirs.
      const opened = Promise.all([conn.unsafe("begin").execute(), first ? run(conn, first.text, first.params) : null]);
      opened.catch(() => {}); // awaited below; a rejection before then is not unhandled
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn({
          query: (text, params) => run(conn, text, params),
          exec: async (text) => {
            await conn.unsafe(text).simple();
          },
        });
      } catch (err) {
        await opened; // the cause, when the transaction never opened
        throw err;
      }
      await opened;
      await conn.unsafe("commit");
      return result;
    } catch (err) {
      // a failed BEGIN leaves nothing open: the rollback then only warns
      await conn.unsafe("rollback").catch(() => {});
      throw err;
    } finally {
      conn.release();
    }
  };
  return {
    kind: options.kind ?? "postgres",
    query: (text, params) => interactive(() => run(sql, text, params)),
    transaction,
    bulk: (fn) => lanes.bulk(() => fn(direct())),
    exec: (text) => interactive(() => direct().exec(text)),
    close: () => sql.end({ timeout: 5 }),
  };
}
