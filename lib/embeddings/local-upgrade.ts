import "server-only";
import { asSystem } from "@/lib/db";
import { isSchemaNotReady } from "@/lib/db/migrate";
import { asJobRun } from "@/lib/metrics/jobs";
import { processWide } from "@/lib/process-wide";
import { backfillEmbeddings, countQueued } from "./backfill";
import { getEmbeddingProvider } from "./index";
import { EARLIER_LOCAL_MODELS, LOCAL_MODEL } from "./local";

/**
 * Vectors an earlier release's local model made are never compared with the current model's, and a
 * row without a vector (a release that changed the text a row is searched by cleared its vector, an
 * opt-out erasure redacted the row) has none to compare: until they are embedded, those rows are
 * found by their words only. With the local provider (offline, free) the server embeds them itself, a
 * few seconds after it starts, in bulk steps that give way to requests; `npm run embed:backfill` does
 * the same at once. Another provider is never called on the server's own initiative: its calls cost
 * money, so re-embedding stays an admin's choice (the console's Re-embed button).
 */
const START_DELAY_MS = 5_000;
/** A server database not yet migrated is looked at again after this long, until it is. */
const SCHEMA_WAIT_MS = 30_000;

const state = processWide<{ timer?: NodeJS.Timeout; running?: Promise<void>; stopping?: boolean }>("localReembed", () => ({}));

/** Rows the local model is to embed: those an earlier local model embedded and those without a vector, in every table that holds vectors. */
export async function countLocalReembedQueue(): Promise<number> {
  const counts = await asSystem((tx) => countQueued(tx, undefined, LOCAL_MODEL, EARLIER_LOCAL_MODELS, true), { lane: "bulk" });
  return counts.reduce((n, c) => n + c.remaining, 0);
}

/** Embeds every row countLocalReembedQueue counts (until a shutdown); resolves with how many were. */
export async function reembedForLocalModel(): Promise<number> {
  if (getEmbeddingProvider().name !== "local") return 0;
  const waiting = await countLocalReembedQueue();
  if (!waiting) return 0;
  console.log(`[memory-hq] embedding ${waiting} rows without a vector of the local model (searches find them by their words until then)`);
  const started = performance.now();
  const report = await asJobRun(
    "embedding_backfill",
    () => backfillEmbeddings({ models: EARLIER_LOCAL_MODELS, missing: true, stop: () => Boolean(state.stopping) }),
    (r) => Boolean(r.error),
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`[memory-hq] embedded ${report.embedded} of ${waiting} rows without a vector of the local model in ${seconds} s`);
  return report.embedded;
}

/** A run a few seconds after the server starts (instrumentation.ts). Not under test runners. */
export function startLocalReembed(): void {
  if (process.env.NODE_ENV === "test" || process.env.VITEST || state.timer) return;
  scheduleLocalReembed(START_DELAY_MS);
}

function scheduleLocalReembed(delayMs: number): void {
  state.timer = setTimeout(() => {
    state.running = reembedForLocalModel().then(
      () => undefined,
      (err) => {
        // the rows a migration left without a vector are embedded once someone migrates the database
        if (isSchemaNotReady(err) && !state.stopping) return scheduleLocalReembed(SCHEMA_WAIT_MS);
        console.error("[memory-hq] embedding rows with the local model stopped:", err instanceof Error ? err.message : err);
      },
    );
  }, delayMs);
  state.timer.unref();
}

/** A graceful shutdown, before the database closes: no batch starts after this, and the one running ends. */
export async function stopLocalReembed(): Promise<void> {
  state.stopping = true;
  if (state.timer) clearTimeout(state.timer);
  await state.running;
}
