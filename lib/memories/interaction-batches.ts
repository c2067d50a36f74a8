import "server-only";
import type { Caller } from "@/lib/auth/caller";
import { recordAudit } from "@/lib/audit/queries";
import { asCaller, asSystem, type Queryable } from "@/lib/db";
import { isSchemaNotReady } from "@/lib/db/migrate";
import { outsideRequest, ServerStoppedRequestError } from "@/lib/db/request-scope";
import { LeaseLost, leased, StepSize } from "@/lib/db/steps";
import { ApiError } from "@/lib/http/errors";
import { processWide } from "@/lib/process-wide";
import * as bq from "./batch-queries";
import * as q from "./interaction-queries";

/**
 * A batch of turns is stored in steps, so that no request waits seconds behind an import on the
 * embedded database (which runs one transaction at a time), and yet it is all or nothing:
 *
 * 1. its row in interaction_batches names its message ids (a write naming one of them waits);
 * 2. its turns are written, a few per step, marked with the batch: no reader sees them
 *    (interactions_select, mhq.own_interactions, mhq.interaction_neighbour); in the same steps
 * 3. they are indexed for search, in conversation order, each with its neighbours;
 * 4. one short statement publishes the batch: every turn visible at once, its speakers among the
 *    agent's people, the audit entry written with it;
 * 5. where it meets the rest of its conversations, documents are written again (the visible turns
 *    next to it now hold it in their context).
 *
 * Each step is a bulk transaction (lib/db/lanes.ts): it waits while requests wait for the database
 * and is sized to hold it about BULK_STEP_MS. Each renews the batch's lease. A step that fails gives
 * the batch up; a process that stops leaves it 'staging' until its lease runs out (at once on the
 * embedded database, whose next start gives up whatever it finds staging); the janitor deletes the
 * turns of a batch given up, in steps, and finishes one published by a process that stopped before
 * step 5. Nothing of a batch given up was ever visible.
 */
export const BATCH_LEASE_MS = 60_000;

/** A step refused by the database because its batch is no longer being stored (RLS, MHQ10). */
const isRefusal = (err: unknown) => ["42501", "MHQ10"].includes((err as { code?: string })?.code ?? "");
/** a write naming a message id that a batch still being stored claims waits for it this long at most */
export const CLAIM_WAIT_MS = 60_000;

interface StepSizes {
  store: StepSize;
  seams: StepSize;
  reindex: StepSize;
  discard: StepSize;
}

interface State {
  sizes?: StepSizes;
  janitor?: Promise<void> | null;
  /** the process is shutting down: the janitor stops between two steps */
  stopping?: boolean;
  /** tests: called after each step of a batch, with the step's name */
  onStep?: (step: string, batchId: string) => Promise<void> | void;
}

const state = processWide<State>("batches", () => ({}));

/** Step sizes learnt across batches (per process): how many turns a step of each kind takes. */
function sizes(): StepSizes {
  if (!state.sizes) {
    state.sizes = {
      store: new StepSize({ first: 4, max: 500 }),
      seams: new StepSize({ first: 16, max: 500 }),
      reindex: new StepSize({ first: 4, max: 500 }),
      discard: new StepSize({ first: 8, max: 500 }),
    };
  }
  return state.sizes;
}

/**
 * Tests: a hook run after each step (to stop a batch midway, or race it). Setting one also forgets
 * the step sizes learnt so far, so a batch starts with small steps as in a new process and a test
 * can count on a batch of a few dozen turns taking several.
 */
export function setBatchStepHookForTests(hook: State["onStep"]) {
  state.onStep = hook;
  if (hook) state.sizes = undefined;
}

export class BatchInterrupted extends ApiError {
  constructor() {
    super("service_unavailable", "The batch was interrupted while it was being stored; nothing of it was stored, send it again");
  }
}

/**
 * Waits until no batch of the agent's still being stored claims any of `externalIds` (it is
 * published, or given up and cleared away), calling `attempt` again each time; `attempt` answers
 * undefined while it must wait. A batch given up is cleared by the janitor, started here.
 */
export async function whenUnclaimed<T>(attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + CLAIM_WAIT_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (Date.now() > deadline) {
      throw new ApiError("service_unavailable", "An earlier request with some of these externalIds is still being stored; send this one again shortly");
    }
    void runBatchJanitor();
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Whether these holders let a write go ahead now (no id claimed by a batch still being stored or cleared). */
export function claimsSettled(holders: bq.ExternalIdHolder[]) {
  return holders.every((h) => h.state === "stored");
}

/**
 * The batch's first step, in the transaction that found none of its message ids claimed (under the
 * agent's message-id lock): its row, which claims them.
 */
export function createBatch(tx: Queryable, agentId: string, rows: q.NewInteraction[]) {
  return bq.createBatch(tx, {
    agentId,
    turns: rows.length,
    externalIds: rows.map((r) => r.externalId).filter((x): x is string => x !== null),
    leaseMs: BATCH_LEASE_MS,
  });
}

/**
 * Stores `rows` (new turns of one agent, in the order sent) as the batch `batchId` (createBatch) in
 * steps and publishes it; `audit` is written with the publishing statement. Answers once the batch
 * is visible and the turns around it are indexed.
 */
export async function storeBatch(
  caller: Caller & { type: "agent" },
  batchId: string,
  rows: q.NewInteraction[],
  audit: Parameters<typeof recordAudit>[1],
): Promise<void> {
  const step = <T>(fn: (tx: Queryable) => Promise<T>) => asCaller(caller, fn, { lane: "bulk" });
  const s = sizes();
  const lease = leased((tx) => bq.renewBatch(tx, { id: batchId, leaseMs: BATCH_LEASE_MS }));
  // Conversation order, (occurred_at, seq): turns are written in it (seq follows the order sent
  // among turns of equal time, as one statement would number them) and indexed in it, each once its
  // two successors are written, so its document holds them and its conversation label follows from
  // the turn before it. A step writes some turns and indexes those that are ready.
  const ordered = rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.occurredAt.getTime() - b.r.occurredAt.getTime() || a.i - b.i)
    .map((o) => o.r);
  const order = ordered.map((r) => r.id);
  try {
    for (let written = 0, indexed = 0; indexed < ordered.length; ) {
      const wanted = s.store.next();
      const slice = ordered.slice(written, written + wanted);
      const ready = written + slice.length === ordered.length ? ordered.length : Math.max(indexed, written + slice.length - 2);
      const toIndex = order.slice(indexed, ready);
      const started = performance.now();
      await step((tx) =>
        lease(tx, async () => {
          // the batch's row locked for the step: a janitor giving it up meanwhile waits for the step,
          // then deletes what it wrote (its turns must never outlive the row that hides them)
          if (!(await bq.lockStagingBatch(tx, { id: batchId }))) throw new LeaseLost();
          if (slice.length) await q.insertInteractions(tx, slice, batchId);
          if (toIndex.length) await bq.indexBatchTurns(tx, { batchId, ids: toIndex });
        }),
      );
      if (slice.length === wanted) s.store.record(wanted, performance.now() - started);
      written += slice.length;
      indexed = ready;
      await state.onStep?.("store", batchId);
    }
    await step(async (tx) => {
      await bq.publishBatch(tx, { batchId, contactIds: [...new Set(rows.map((r) => r.contactId).filter((c): c is string => c !== null))] });
      await recordAudit(tx, audit);
    });
  } catch (err) {
    // a step refused because the batch was given up meanwhile (its lease ran out): say so
    // (outside the request: when its caller left, the batch is given up all the same)
    const cleanUp = <T>(fn: (tx: Queryable) => Promise<T>) => outsideRequest(() => step(fn));
    const givenUp = isRefusal(err) && !(await cleanUp((tx) => bq.renewBatch(tx, { id: batchId, leaseMs: BATCH_LEASE_MS })).catch(() => false));
    await cleanUp((tx) => bq.abandonBatch(tx, { id: batchId })).catch(() => {});
    void runBatchJanitor();
    throw givenUp || err instanceof LeaseLost || err instanceof ServerStoppedRequestError ? new BatchInterrupted() : err;
  }
  await state.onStep?.("published", batchId);
  // visible now; what is left only brings the turns around it up to date (the janitor redoes it after
  // a crash), whether or not the caller is still there
  await outsideRequest(() => finishPublished(batchId, order));
}

/** Runs `fn` over `items` in bulk steps sized by `size`; the tests' hook after each. */
async function inBulkSteps<T>(items: T[], size: StepSize, fn: (slice: T[]) => Promise<unknown>, name: string, batchId: string) {
  for (let at = 0; at < items.length; ) {
    const wanted = size.next();
    const slice = items.slice(at, at + wanted);
    const started = performance.now();
    await fn(slice);
    // the last, shorter slice says little about the next steps
    if (slice.length === wanted) size.record(slice.length, performance.now() - started);
    at += slice.length;
    await state.onStep?.(name, batchId);
  }
}

/**
 * Where a published batch meets the rest of its conversations, the documents are written again:
 * turns whose neighbours changed while it was hidden (another batch or a write landed beside
 * them), the visible turns now next to it, and the two turns on each side of those. All in steps;
 * then its row goes. `ids`: its turns in conversation order (read from the database when unknown).
 */
async function finishPublished(batchId: string, ids?: string[]) {
  const system = <T>(fn: (tx: Queryable) => Promise<T>) => asSystem(fn, { lane: "bulk" });
  const s = sizes();
  const turns = ids ?? (await system((tx) => bq.batchTurns(tx, { batchId })));
  const seams = new Set<string>();
  await inBulkSteps(turns, s.seams, async (slice) => {
    for (const id of await system((tx) => bq.batchSeams(tx, { batchId, ids: slice }))) seams.add(id);
  }, "seams", batchId);
  const around = new Set<string>();
  await inBulkSteps([...seams], s.seams, async (slice) => {
    for (const id of await system((tx) => bq.turnsAround(tx, { ids: slice }))) around.add(id);
  }, "around", batchId);
  const order = around.size ? await system((tx) => bq.inConversationOrder(tx, { ids: [...around] })) : [];
  await inBulkSteps(order, s.reindex, (slice) => system((tx) => bq.reindexTurns(tx, { ids: slice })), "reindex", batchId);
  await system((tx) => bq.deleteBatch(tx, { id: batchId }));
}

/** Deletes the turns of a batch given up, in steps; then its row. */
async function discard(batchId: string) {
  const size = sizes().discard;
  for (;;) {
    if (state.stopping) return;
    const limit = size.next();
    const started = performance.now();
    const deleted = await asSystem((tx) => bq.deleteBatchTurns(tx, { batchId, limit }), { lane: "bulk" });
    if (deleted < limit) break;
    size.record(limit, performance.now() - started);
  }
  await asSystem((tx) => bq.deleteBatch(tx, { id: batchId }), { lane: "bulk" });
}

/**
 * The janitor of batches (lib/bulk/leftovers.ts runs it at start and every minute): gives up
 * batches whose lease ran out, deletes the turns of those given up and finishes batches published
 * by a process that stopped before indexing their seams. One run at a time per process; runs after
 * a failed batch and when a write waits for one too (several instances may run it at once: each
 * step locks what it changes).
 */
export function runBatchJanitor(): Promise<void> {
  if (state.stopping) return Promise.resolve();
  // outside the request that set it off: its caller may have left, the clean-up must still happen
  state.janitor ??= outsideRequest(async () => {
    try {
      await asSystem((tx) => bq.expireBatches(tx), { lane: "bulk" });
      const leftovers = await asSystem((tx) => bq.leftoverBatches(tx), { lane: "bulk" });
      for (const b of leftovers) {
        if (state.stopping) break;
        if (b.state === "abandoned") await discard(b.id);
        else await finishPublished(b.id);
      }
    } catch (err) {
      // an unmigrated server database is logged once where it is found (lib/db), not every minute here
      if (isSchemaNotReady(err)) return;
      console.error("[memory-hq] interaction batches: clearing up failed (it is tried again):", err instanceof Error ? err.message : err);
    } finally {
      state.janitor = null;
    }
  });
  return state.janitor;
}

/** A graceful shutdown: the janitor starts no more steps; resolves once the one running ended. */
export async function stopBatchJanitor(): Promise<void> {
  state.stopping = true;
  await state.janitor;
}

/**
 * At the start of the process that serves the embedded database: whatever batch it finds still
 * being stored, or published but not finished, belonged to a process that stopped (only one process
 * opens the database), so it is given up — or left to the janitor to finish — at once, before any
 * request is served; the janitor clears it away shortly after.
 */
export async function releaseBatchesOfStoppedProcess(db: Queryable) {
  await bq.releaseBatchesOfStoppedProcess(db);
}

