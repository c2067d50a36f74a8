import type { PGlite } from "@electric-sql/pglite";
import type { AddressInfo } from "node:net";

export interface WireServer {
  /** The socket's path, or the TCP address and port it listens at. */
  address: string | AddressInfo | null;
  /** Runs `fn` while no protocol message is processed; what arrives meanwhile waits its turn. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Serves `pg` over the Postgres wire protocol at a Unix socket's path or a TCP address. */
export function serveWire(pg: PGlite, listen: string | { host: string; port: number }): Promise<WireServer>;
