import "server-only";
import { asSystem } from "@/lib/db";
import { addKnowledgeAccess, addMemoryAccess, type AccessCount } from "./queries";

/**
 * The access counters (`accessed_count`, `last_accessed_at`) of the memories and knowledge entries
 * retrieval serves, written in batches instead of inside each call.
 *
 * Why: updating one of these rows costs 1–3 ms in the embedded database (a wide row: text, its
 * tsvector, a TOASTed vector, and the HNSW/GIN indexes when the update cannot stay on its page),
 * and a call serves about ten items: counting inline took a fifth of a retrieval's time and most of
 * its tail. The `retrieval_log` row, written in the call's own transaction, remains the record of
 * what was served; the counters are its running totals and trail it by at most FLUSH_DELAY_MS.
 * Repeated hits on the same row between two flushes become one update.
 *
 * A flush that fails keeps its counts and is retried (MAX_ATTEMPTS in all); a process that stops
 * between two flushes loses at most the last second of counts (the log still has them).
 */
export const FLUSH_DELAY_MS = 1000;
/** flush right away once this many distinct rows wait */
export const FLUSH_AT_ROWS = 500;
/**
 * Rows per transaction of a flush. The embedded database runs one transaction at a time: small
 * transactions let requests that arrive during a flush go between them instead of waiting for all.
 */
export const FLUSH_CHUNK_ROWS = 16;
const MAX_ATTEMPTS = 3;

type Pending = Map<string, AccessCount>;

interface State {
  memories: Pending;
  knowledge: Pending;
  attempts: number;
  timer: ReturnType<typeof setTimeout> | null;
  flushing: Promise<void> | null;
}

// on globalThis so every route bundle of the server shares one buffer
const state: State = ((globalThis as Record<string, unknown>).__memoryHqAccessCounts ??= {
  memories: new Map(),
  knowledge: new Map(),
  attempts: 0,
  timer: null,
  flushing: null,
}) as State;

function add(into: Pending, id: string, count: number, at: Date) {
  const prev = into.get(id);
  into.set(id, prev ? { id, count: prev.count + count, at: prev.at > at ? prev.at : at } : { id, count, at });
}

/** Counts one access to each id (memories: agent- and team-scope memories; knowledge: published entries). */
export function countAccess(ids: { memories?: string[]; knowledge?: string[] }, at = new Date()) {
  for (const id of ids.memories ?? []) add(state.memories, id, 1, at);
  for (const id of ids.knowledge ?? []) add(state.knowledge, id, 1, at);
  if (state.memories.size + state.knowledge.size >= FLUSH_AT_ROWS) void flushAccessCounts();
  else schedule();
}

function schedule() {
  if (state.timer || (state.memories.size === 0 && state.knowledge.size === 0)) return;
  state.timer = setTimeout(() => void flushAccessCounts(), FLUSH_DELAY_MS);
  // a pending flush never keeps a process (a test run, a CLI) alive
  state.timer.unref?.();
}

/** Writes every pending count now (tests, shutdown, and the timer). Resolves when it is stored. */
export async function flushAccessCounts(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  while (state.flushing) await state.flushing;
  if (state.memories.size === 0 && state.knowledge.size === 0) return;
  const memories = [...state.memories.values()];
  const knowledge = [...state.knowledge.values()];
  state.memories = new Map();
  state.knowledge = new Map();
  state.flushing = (async () => {
    try {
      // as the system: each id was served to its agent under RLS moments ago, and the counters are
      // columns no caller may write
      while (memories.length || knowledge.length) {
        const m = memories.slice(0, FLUSH_CHUNK_ROWS);
        const k = knowledge.slice(0, FLUSH_CHUNK_ROWS - m.length);
        await asSystem(async (tx) => {
          await addMemoryAccess(tx, m);
          await addKnowledgeAccess(tx, k);
        });
        // stored: a failure after this point retries only what is left
        memories.splice(0, m.length);
        knowledge.splice(0, k.length);
      }
      state.attempts = 0;
    } catch (err) {
      state.attempts += 1;
      if (state.attempts < MAX_ATTEMPTS) {
        for (const c of memories) add(state.memories, c.id, c.count, c.at);
        for (const c of knowledge) add(state.knowledge, c.id, c.count, c.at);
      } else {
        state.attempts = 0;
      }
      console.error(
        `[memory-hq] access counters not stored (${state.attempts === 0 ? "dropped after retries" : "will retry"}):`,
        err instanceof Error ? err.message : err,
      );
    } finally {
      state.flushing = null;
    }
    schedule();
  })();
  await state.flushing;
}
