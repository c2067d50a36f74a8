import type { Lane } from "./lanes";

/** A handle that runs SQL: the database itself, or one open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** One SQL statement and its parameters. */
export interface Statement {
  text: string;
  params?: unknown[];
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /**
   * Runs `fn` in one transaction as the owning (system) role; commits or rolls back as a whole.
   * `first` is the transaction's first statement (its settings): a server connection sends it with
   * BEGIN in one round trip. `lane` "bulk" makes it a step of a long job (lib/db/lanes.ts): it waits
   * while interactive work waits for a connection, and bulk work holds only its share of them.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: { first?: Statement; lane?: Lane }): Promise<T>;
  /**
   * Runs `fn` as one bulk step outside a transaction (statements that cannot run in one, such as
   * VACUUM): it takes bulk work's turn as a bulk transaction does.
   */
  bulk<T>(fn: (db: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * The embedded database only: a consistent snapshot of its files as gzip'd tar bytes, taken between
   * transactions (lib/db/snapshot.ts). A server database has none: it is backed up with pg_dump.
   */
  snapshot?(): Promise<ReadableStream<Uint8Array>>;
}

/**
 * A contract view's row as a query reads it from its table, where the view also shows what was never
 * stored (a document never written reads as version 0, with no author and no date of change): every
 * field is present, and the fields `K` are never null.
 */
export type StoredRow<View, K extends keyof View = never> = { [P in keyof View]-?: P extends K ? NonNullable<View[P]> : View[P] };
