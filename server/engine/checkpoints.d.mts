import type { PGlite } from "@electric-sql/pglite";
import type { WireServer } from "./wire.mjs";

export interface Checkpoints {
  /** Stops checking. */
  stop(): void;
  /** Resolves after the next check has run. */
  checks(): Promise<void>;
}

/**
 * Checkpoints the embedded database (which has no checkpointer) when `walBytes` of write-ahead log were
 * written since the last one, or `everyMs` passed with any write; checked every `checkMs`, outside
 * any transaction.
 */
export function startCheckpoints(pg: PGlite, server: WireServer, options?: { walBytes?: number; everyMs?: number; checkMs?: number }): Checkpoints;
