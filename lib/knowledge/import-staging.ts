import "server-only";
import type { Caller } from "@/lib/auth/caller";
import { asCaller, asSystem, type Queryable } from "@/lib/db";
import { isSchemaNotReady } from "@/lib/db/migrate";
import { outsideRequest } from "@/lib/db/request-scope";
import { LeaseLost, leased, StepSize } from "@/lib/db/steps";
import { ApiError } from "@/lib/http/errors";
import { processWide } from "@/lib/process-wide";
import * as iq from "./import-queries";

/**
 * A knowledge import is written in steps and published at once, as a batch of interactions is
 * (lib/memories/interaction-batches.ts): its row in knowledge_imports hides its entries from every
 * reader (knowledge_entries_select) while they are written a few per bulk step, and one statement
 * publishes them all by deleting that row. A step that fails gives the import up; a process that
 * stops leaves it 'staging' until its lease runs out (at once on the embedded database, whose next
 * start gives up what it finds); the janitor deletes the entries of an import given up, in steps.
 */
export const IMPORT_LEASE_MS = 60_000;

type Entry = Parameters<typeof iq.insertImportEntries>[1]["entries"][number];

interface State {
  write?: StepSize;
  discard?: StepSize;
  janitor?: Promise<void> | null;
  /** the process is shutting down: the janitor stops between two steps */
  stopping?: boolean;
  /** tests: called after each step of an import */
  onStep?: (step: string) => Promise<void> | void;
}

const state = processWide<State>("knowledgeImports", () => ({}));

/**
 * Tests: a hook run after each step of an import. Setting one also forgets the step sizes learnt so
 * far, so an import starts with small steps as in a new process and a test can count on a few dozen
 * entries taking several.
 */
export function setImportStepHookForTests(hook: ((step: string) => Promise<void> | void) | undefined) {
  state.onStep = hook;
  if (hook) state.write = state.discard = undefined;
}

/**
 * Writes `entries` as one import in bulk steps, then, in the publishing step, runs `settle` with the
 * set of ids written (an entry whose title was taken meanwhile is not) before the entries turn
 * visible.
 */
export async function storeImport(caller: Caller, entries: Entry[], settle: (written: Set<string>) => (tx: Queryable) => Promise<void>) {
  const step = <T>(fn: (tx: Queryable) => Promise<T>) => asCaller(caller, fn, { lane: "bulk" });
  const importId = await step((tx) => iq.createImport(tx, { entries: entries.length, leaseMs: IMPORT_LEASE_MS }));
  const lease = leased((tx) => iq.renewImport(tx, { id: importId, leaseMs: IMPORT_LEASE_MS }));
  state.write ??= new StepSize({ first: 4, max: 500 });
  try {
    for (let at = 0; at < entries.length; ) {
      const wanted = state.write.next();
      const slice = entries.slice(at, at + wanted);
      const started = performance.now();
      await step((tx) =>
        lease(tx, async () => {
          if (!(await iq.importStillStaging(tx, { id: importId }))) throw new LeaseLost();
          await iq.insertImportEntries(tx, { importId, entries: slice });
        }),
      );
      if (slice.length === wanted) state.write.record(wanted, performance.now() - started);
      at += slice.length;
      await state.onStep?.("write");
    }
    await step(async (tx) => {
      const written = await iq.writtenEntries(tx, { importId, ids: entries.map((e) => e.id) });
      await settle(written)(tx);
      await iq.publishImport(tx, { importId });
    });
  } catch (err) {
    // a step refused because the import was given up meanwhile (its lease ran out): say so
    const code = (err as { code?: string })?.code;
    // (outside the request: when its caller left, the import is given up all the same)
    const cleanUp = <T>(fn: (tx: Queryable) => Promise<T>) => outsideRequest(() => step(fn));
    const givenUp = code === "42501" && !(await cleanUp((tx) => iq.renewImport(tx, { id: importId, leaseMs: IMPORT_LEASE_MS })).catch(() => false));
    await cleanUp((tx) => iq.abandonImport(tx, { id: importId })).catch(() => {});
    void runImportJanitor();
    if (givenUp || err instanceof LeaseLost || code === "MHQ10") {
      throw new ApiError("service_unavailable", "The import was interrupted while it was being stored; nothing of it was stored, send it again");
    }
    throw err;
  }
}

/** Deletes the entries of imports given up (and of those whose lease ran out), in bulk steps. */
export function runImportJanitor(): Promise<void> {
  if (state.stopping) return Promise.resolve();
  // outside the request that set it off: its caller may have left, the clean-up must still happen
  state.janitor ??= outsideRequest(async () => {
    try {
      await asSystem((tx) => iq.expireImports(tx), { lane: "bulk" });
      state.discard ??= new StepSize({ first: 8, max: 500 });
      for (const importId of await asSystem((tx) => iq.abandonedImports(tx), { lane: "bulk" })) {
        for (;;) {
          if (state.stopping) return;
          const limit = state.discard.next();
          const started = performance.now();
          const deleted = await asSystem((tx) => iq.deleteImportEntries(tx, { importId, limit }), { lane: "bulk" });
          if (deleted < limit) break;
          state.discard.record(limit, performance.now() - started);
        }
        await asSystem((tx) => iq.deleteImport(tx, { id: importId }), { lane: "bulk" });
      }
    } catch (err) {
      // an unmigrated server database is logged once where it is found (lib/db), not every minute here
      if (isSchemaNotReady(err)) return;
      console.error("[memory-hq] knowledge imports: clearing up failed (it is tried again):", err instanceof Error ? err.message : err);
    } finally {
      state.janitor = null;
    }
  });
  return state.janitor;
}

/** A graceful shutdown: the janitor starts no more steps; resolves once the one running ended. */
export async function stopImportJanitor(): Promise<void> {
  state.stopping = true;
  await state.janitor;
}

/** At the start of the process that serves the embedded database: every import still being written was left by a process that stopped. */
export async function releaseImportsOfStoppedProcess(db: Queryable) {
  await iq.expireImports(db, { all: true });
}
