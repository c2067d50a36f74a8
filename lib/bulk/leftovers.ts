import "server-only";
import type { Queryable } from "@/lib/db";
import { releaseImportsOfStoppedProcess, runImportJanitor, stopImportJanitor } from "@/lib/knowledge/import-staging";
import { releaseBatchesOfStoppedProcess, runBatchJanitor, stopBatchJanitor } from "@/lib/memories/interaction-batches";
import { processWide } from "@/lib/process-wide";

/**
 * What imports stored in steps leave behind when they fail or their process stops: batches of
 * interactions and knowledge imports given up (their rows hidden from every reader, deleted in
 * bulk steps) and batches published but not finished. The janitor clears them at start, every
 * minute, and whenever an import fails or a write waits for one.
 */
const TICK_MS = 60_000;

const state = processWide<{ timer?: NodeJS.Timeout }>("leftovers", () => ({}));

export async function runLeftoverJanitor(): Promise<void> {
  await Promise.all([runBatchJanitor(), runImportJanitor()]);
}

/**
 * At the start of the one process that serves the embedded database, before it serves a request:
 * whatever it finds being stored was left by a process that stopped, and is given up (or, for a
 * published batch, left to the janitor to finish) at once.
 */
export async function releaseWorkOfStoppedProcess(db: Queryable) {
  await releaseBatchesOfStoppedProcess(db);
  await releaseImportsOfStoppedProcess(db);
}

/** Starts the janitor's timer (instrumentation.ts): a run a second after start and every minute. Not under test runners. */
export function startLeftoverJanitor(): void {
  if (process.env.NODE_ENV === "test" || process.env.VITEST || state.timer) return;
  state.timer = setInterval(() => void runLeftoverJanitor(), TICK_MS);
  state.timer.unref();
  setTimeout(() => void runLeftoverJanitor(), 1000).unref();
}

/**
 * A graceful shutdown, before the database closes: stops the timer and waits for the step running
 * (the janitors start no more; what is left is cleared after the next start).
 */
export async function stopLeftoverJanitor(): Promise<void> {
  if (state.timer) clearInterval(state.timer);
  state.timer = undefined;
  await Promise.all([stopBatchJanitor(), stopImportJanitor()]);
}
