import "server-only";
import { metrics } from "./registry";

/** One retrieval served at the smart trigger's `level` (none, local, shared, hq), and how long it took. */
export function recordRetrieval(level: string, seconds: number): void {
  const m = metrics();
  m.retrievals.inc({ level });
  m.retrievalDuration.observe({ level }, seconds);
}
