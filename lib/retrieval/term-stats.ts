import "server-only";
import { asSystem, getDatabase } from "@/lib/db";
import { foldSearchStats, refreshInteractionStats, vacuumSearchPostings } from "./queries";
import { processWide } from "@/lib/process-wide";

/**
 * The BM25 statistics of conversations (document frequencies, document count and length per agent
 * and per client) are rebuilt in batches, after writes, instead of being counted up by every write:
 * a counter row per common word would serialize every concurrent write of a scope. Each write
 * notes its scopes; at most every REFRESH_DELAY_MS the noted scopes are rebuilt, one transaction
 * each, in sorted order. Until then the search counts words the statistics do not know yet, so a
 * new row is found at once; only the weights of known words trail the writes by a moment.
 */
export const REFRESH_DELAY_MS = 2000;

interface State {
  pending: Set<string>;
  /** memories or knowledge entries were written: their statistics' log is folded in */
  fold?: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  running: Promise<void> | null;
}

// one per process, so every route bundle of the server shares one set
const state = processWide<State>("termStats", () => ({ pending: new Set(), timer: null, running: null }));

/** Notes that an interaction of this agent (and client) was written. */
export function noteInteractionWrite(agentId: string, clientId: string | null) {
  state.pending.add(`agent:${agentId}`);
  if (clientId) state.pending.add(`client:${clientId}`);
  schedule();
}

/**
 * Notes that memories or knowledge entries were written. Their statistics (search_term_stats) take
 * each write's deltas from an append-only log, folded in by the same timer; searches read the
 * log not folded yet too, so this only keeps that log short.
 */
export function noteSearchWrite() {
  state.fold = true;
  schedule();
}

function schedule() {
  if (state.timer) return;
  state.timer = setTimeout(() => void flushTermStats().catch((err) => console.warn(`[memory-hq] term statistics: ${(err as Error).message}`)), REFRESH_DELAY_MS);
  state.timer.unref?.();
}

/** Rebuilds the statistics of every noted scope now (tests, benches, and the timer). */
export async function flushTermStats(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  while (state.running) await state.running;
  if (!state.pending.size && !state.fold) return;
  const scopes = [...state.pending].sort();
  const fold = state.fold;
  state.pending = new Set();
  state.fold = false;
  state.running = (async () => {
    // the embedded database has no autovacuum: without it every posting read also reads its heap
    // row (the postings' index-only scans need the visibility map), about twice the time
    const db = await getDatabase();
    const embedded = db.kind === "pglite";
    if (fold && (await asSystem((tx) => foldSearchStats(tx))) > 0 && embedded) await vacuumSearchPostings(db, "memories and knowledge");
    let refreshed = false;
    for (const key of scopes) {
      const [kind, id] = key.split(":") as ["agent" | "client", string];
      refreshed = (await asSystem((tx) => refreshInteractionStats(tx, kind, id))) || refreshed;
    }
    if (refreshed && embedded) await vacuumSearchPostings(db, "interactions");
  })().finally(() => {
    state.running = null;
  });
  await state.running;
}
