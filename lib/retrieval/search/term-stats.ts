import "server-only";
import { asSystem, getDatabase } from "@/lib/db";
import { StepSize } from "@/lib/db/steps";
import { foldSearchStats, POSTINGS_TABLES, refreshInteractionStatsStep, vacuumTable } from "./queries";
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

/**
 * VACUUM of a postings table at most this often (embedded database): it cannot be split into steps
 * and holds the database for as long as it runs, which grows with what changed since the last one.
 */
export const VACUUM_EVERY_MS = 30_000;

interface State {
  pending: Set<string>;
  sizes?: { fold: StepSize; refresh: StepSize };
  /** per table: when it was vacuumed last, and whether it changed since */
  vacuumed: Map<string, number>;
  dirty: Set<string>;
  /** memories or knowledge entries were written: their statistics' log is folded in */
  fold?: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  running: Promise<void> | null;
}

// one per process, so every route bundle of the server shares one set
const state = processWide<State>("termStats", () => ({ pending: new Set(), timer: null, running: null, vacuumed: new Map(), dirty: new Set() }));

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
  state.timer = setTimeout(
    () => void flushTermStats({ due: true }).catch((err) => console.warn(`[memory-hq] term statistics: ${(err as Error).message}`)),
    REFRESH_DELAY_MS,
  );
  state.timer.unref?.();
}

/**
 * Rebuilds the statistics of every noted scope now (tests, benches, a shutdown, and the timer), and
 * vacuums the tables that changed: all of them, or from the timer (`due`) those not vacuumed within
 * VACUUM_EVERY_MS.
 */
export async function flushTermStats(opts: { due?: boolean } = {}): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  while (state.running) await state.running;
  if (!state.pending.size && !state.fold) {
    if (state.dirty.size && (await getDatabase()).kind === "pglite") await vacuumDirtyTables(!opts.due);
    return;
  }
  const scopes = [...state.pending].sort();
  const fold = state.fold;
  state.pending = new Set();
  state.fold = false;
  state.running = (async () => {
    // each step a bulk transaction of about BULK_STEP_MS (lib/db/steps.ts, lib/db/lanes.ts): requests go between them
    const db = await getDatabase();
    const embedded = db.kind === "pglite";
    state.sizes ??= {
      fold: new StepSize({ first: 200, max: 20_000 }),
      refresh: new StepSize({ first: 200, max: 20_000 }),
    };
    const { fold: foldSize, refresh: refreshSize } = state.sizes;
    if (fold) {
      for (;;) {
        const limit = foldSize.next();
        const started = performance.now();
        const folded = await asSystem((tx) => foldSearchStats(tx, { limit }), { lane: "bulk" });
        if (folded > 0) for (const t of POSTINGS_TABLES["memories and knowledge"]) state.dirty.add(t);
        if (folded < limit) break;
        foldSize.record(limit, performance.now() - started);
      }
    }
    for (const key of scopes) {
      const [kind, scopeId] = key.split(":") as ["agent" | "client", string];
      for (let after: string | null = ""; after !== null; ) {
        const from: string = after;
        const lexemes = refreshSize.next();
        const started = performance.now();
        after = await asSystem((tx) => refreshInteractionStatsStep(tx, { kind, scopeId, after: from, lexemes }), { lane: "bulk" });
        if (after !== null) refreshSize.record(lexemes, performance.now() - started);
      }
      for (const t of POSTINGS_TABLES.interactions) state.dirty.add(t);
    }
    // the embedded database has no autovacuum: without it every posting read also reads its heap
    // row (the postings' index-only scans need the visibility map), about twice the time
    if (embedded) await vacuumDirtyTables(!opts.due);
  })().finally(() => {
    state.running = null;
  });
  await state.running;
}

/** VACUUM, one table per bulk step, of the tables changed since their last one, at most every VACUUM_EVERY_MS each. */
async function vacuumDirtyTables(force = false) {
  const db = await getDatabase();
  for (const table of [...state.dirty]) {
    if (!force && Date.now() - (state.vacuumed.get(table) ?? 0) < VACUUM_EVERY_MS) {
      schedule();
      continue;
    }
    state.dirty.delete(table);
    state.vacuumed.set(table, Date.now());
    await db.bulk((q) => vacuumTable(q, table as Parameters<typeof vacuumTable>[1]));
  }
}
