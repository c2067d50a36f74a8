import "server-only";
import { asSystem, getDatabase, type Queryable } from "@/lib/db";
import { StepSize } from "@/lib/db/steps";
import { asJobRun } from "@/lib/metrics/jobs";
import { foldAccessEvents, insertAccessEvents, pendingAccess, type AccessKind } from "./access-queries";
import { processWide } from "@/lib/process-wide";

/**
 * The access counters (`accessed_count`, `last_accessed_at`) of memories and knowledge entries —
 * every writer goes through here.
 *
 * A request records what it served with `countAccess(tx, …)`: narrow rows inserted into
 * access_events in the request's own transaction, so an access is stored exactly when the request
 * commits and concurrent requests never wait on (or deadlock over) a popular item's row. Updating
 * those wide rows inline also cost a fifth of a retrieval on the embedded database. The events are
 * folded into the counters about once a second by whichever app instance served them
 * (mhq.fold_access_events: several instances may fold at once; it locks rows in id order). A process
 * that stops before folding loses nothing: the events wait in the table for the next fold, by any
 * instance. The counters therefore trail the accesses by about FOLD_DELAY_MS.
 */
export const FOLD_DELAY_MS = 1000;
/**
 * Events in the first fold transaction. Each fold is a bulk step (it waits while requests are
 * served, lib/db/lanes.ts) sized like every bulk step to hold the database about BULK_STEP_MS
 * (lib/db/steps.ts): the embedded database runs one transaction at a time, and requests arriving
 * meanwhile go between the steps. A server starts larger.
 */
export const FOLD_CHUNK = { pglite: 32, postgres: 500 } as const;

interface State {
  timer: ReturnType<typeof setTimeout> | null;
  folding: Promise<void> | null;
  size?: StepSize;
}

// one per process, so every route bundle of the server shares one timer
const state = processWide<State>("accessFold", () => ({ timer: null, folding: null }));

/**
 * Counts one access to each id as the calling agent, in its transaction (memories: the agent's own
 * and team memories; knowledge: published entries). RLS refuses anything else.
 */
export async function countAccess(tx: Queryable, ids: { memories?: string[]; knowledge?: string[] }) {
  const memories = ids.memories ?? [];
  const knowledge = ids.knowledge ?? [];
  if (!memories.length && !knowledge.length) return;
  await insertAccessEvents(tx, { memories, knowledge });
  schedule();
}

/**
 * Counts one access to each of `ids` (as countAccess) and answers the accesses of each not yet
 * folded into its counters, this one included, so a response can show counters that include them.
 * Both statements are sent together: the pending count runs first, and the accesses this call
 * records are added to it here.
 */
export async function countAccessShown(tx: Queryable, kind: AccessKind, ids: string[]): Promise<Map<string, { count: number; at: Date }>> {
  if (!ids.length) return new Map();
  const [{ pending, now }] = await Promise.all([
    pendingAccess(tx, { kind, ids }),
    countAccess(tx, kind === "memory" ? { memories: ids } : { knowledge: ids }),
  ]);
  for (const id of ids) {
    const p = pending.get(id);
    pending.set(id, { count: (p?.count ?? 0) + 1, at: now ?? new Date() });
  }
  return pending;
}

function schedule() {
  if (state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    void flushAccessCounts().catch((err) =>
      console.error("[memory-hq] access counters not folded yet (the events are kept):", err instanceof Error ? err.message : err),
    );
  }, FOLD_DELAY_MS);
  // a pending fold never keeps a process (a test run, a CLI) alive
  state.timer.unref?.();
}

/**
 * Folds every pending access event into the counters now (the timer, tests, benches). Resolves when
 * they are stored; on an error the events stay for the next fold.
 */
export async function flushAccessCounts(): Promise<void> {
  // this fold takes what the timer would have: a timer left behind would fold again later, after a
  // shutdown or a test has closed the database
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = null;
  }
  while (state.folding) await state.folding;
  const run = asJobRun("access_fold", async () => {
    state.size ??= new StepSize({ first: FOLD_CHUNK[(await getDatabase()).kind], max: 5_000 });
    for (;;) {
      const limit = state.size.next();
      const started = performance.now();
      // a bulk step (lib/db/lanes.ts): it waits while requests wait for the database
      const folded = await asSystem((tx) => foldAccessEvents(tx, { limit }), { lane: "bulk" });
      if (folded < limit) break;
      state.size.record(limit, performance.now() - started);
    }
  });
  state.folding = run.then(
    () => undefined,
    () => undefined,
  );
  try {
    await run;
  } finally {
    state.folding = null;
  }
}
