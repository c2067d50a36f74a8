import "server-only";
import type { z } from "zod";
import { purgeExpiredNotes } from "@/lib/agent-log/queries";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { getConfig } from "@/lib/config";
import { randomUUID } from "node:crypto";
import { asCaller, type Queryable } from "@/lib/db";
import { outsideRequest } from "@/lib/db/request-scope";
import { LeaseLost, StepSize } from "@/lib/db/steps";
import { ApiError } from "@/lib/http/errors";
import { asJobRun } from "@/lib/metrics/jobs";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { todayIn } from "@/lib/documents/today";
import { buildReport } from "./report-builder";
import * as q from "./queries";
import {
  addDays,
  CORE_VERIFY_AFTER_DAYS,
  DAILY_NOTE_KEEP_DAYS,
  daysAgo,
  PROMOTABLE_CATEGORIES,
  PROMOTION_MIN_AGE_DAYS,
  PROMOTION_MIN_CONFIDENCE,
  PROMOTION_MIN_USES,
  promotedCategory,
  RESOLVED_WORKING_KEEP_DAYS,
} from "./rules";
import type { ConsolidationReport } from "./contracts";
import type { consolidateBody } from "./schemas";
import { deliverReports } from "./webhook";
import { noteSearchWrite } from "@/lib/retrieval/search/term-stats";

const AWAITING_LIST_LIMIT = 200;
/** A run renews its lease at every step; one whose process stopped lets the next run go after this long. */
export const RUN_LEASE_MS = 60_000;
/** How long a run waits for another one to end before it answers 503. */
const RUN_WAIT_MS = 10 * 60_000;

/** What a run changed, as its audit entry records it (each step's part kept in consolidation_progress while it runs). */
interface RunChanges {
  asOf: string;
  archivedDailyNotes: string[];
  archivedExpiredLearning: string[];
  prunedResolvedWorking: string[];
  purgedAgentNotes: number;
  promoted: { id: string; from: string[] }[];
  flaggedForVerification: string[];
  reports: string[];
}

const emptyChanges = (asOf: string): RunChanges => ({
  asOf,
  archivedDailyNotes: [],
  archivedExpiredLearning: [],
  prunedResolvedWorking: [],
  purgedAgentNotes: 0,
  promoted: [],
  flaggedForVerification: [],
  reports: [],
});

/** `a` and then `b`: what two parts of a run changed together. */
const mergeChanges = (a: RunChanges, b: RunChanges): RunChanges => ({
  asOf: a.asOf,
  archivedDailyNotes: [...a.archivedDailyNotes, ...b.archivedDailyNotes],
  archivedExpiredLearning: [...a.archivedExpiredLearning, ...b.archivedExpiredLearning],
  prunedResolvedWorking: [...a.prunedResolvedWorking, ...b.prunedResolvedWorking],
  purgedAgentNotes: a.purgedAgentNotes + b.purgedAgentNotes,
  promoted: [...a.promoted, ...b.promoted],
  flaggedForVerification: [...a.flaggedForVerification, ...b.flaggedForVerification],
  reports: [...a.reports, ...b.reports],
});

const changeCount = (c: RunChanges) =>
  c.archivedDailyNotes.length + c.archivedExpiredLearning.length + c.prunedResolvedWorking.length + c.purgedAgentNotes +
  c.promoted.length + c.flaggedForVerification.length + c.reports.length;

const auditRun = (tx: Queryable, changes: RunChanges, interrupted = false) =>
  recordAudit(tx, { action: "lifecycle.consolidate", targetType: "lifecycle", details: interrupted ? { ...changes, interrupted } : changes });

class DryRunRollback<T> extends Error {
  constructor(readonly value: T) {
    super("dry run");
  }
}

/**
 * The nightly consolidation, as an HQ admin:
 * - daily notes older than 7 days are archived (still readable, no longer in boot);
 * - low-confidence learning memories past their expiry that were never used are archived;
 * - working items resolved more than 14 days ago are pruned (archived);
 * - expired agent notes are purged;
 * - recurring, well-used learning memories are promoted into the core tier (see rules.ts);
 * - core memories not confirmed for 30 days are flagged for verification;
 * - decisions awaiting outcomes are listed;
 * - every agent's report for the previous local day is written (once).
 * Each rule changes only what it has not changed before, so a second run changes nothing. A dry
 * run does all of it and rolls back, so its report is exactly what a real run would do.
 *
 * It runs as bulk work in short steps (the rules a few hundred rows a step, then the reports a few
 * agents a step), so
 * requests go ahead of it between steps. One run at a time in the whole deployment: a run holds a
 * lease across its steps, and a concurrent one (another instance, an admin call during the
 * scheduled run) waits for it to end, then finds nothing left to do. The run's audit entry is written
 * with its last step; what each step changed is kept in a row of its own, written with the step, so a
 * run that fails midway is audited as interrupted (by itself, or by the next run once its lease has
 * run out).
 */
export async function consolidate(caller: Caller, body: z.infer<typeof consolidateBody>): Promise<ConsolidationReport> {
  // a dry run is an operator's preview, not a run of the job
  return body.dryRun ? runConsolidation(caller, body) : asJobRun("consolidate", () => runConsolidation(caller, body));
}

async function runConsolidation(caller: Caller, body: z.infer<typeof consolidateBody>): Promise<ConsolidationReport> {
  const asOf = body.now ? new Date(body.now) : new Date();
  const now = asOf.toISOString();
  const dryRun = body.dryRun ?? false;
  const timeZone = getConfig().DAILY_NOTE_TIMEZONE;
  const today = todayIn(timeZone, asOf);
  const reportDate = addDays(today, -1);
  // "never used" and "keeps being used" read the access counters: fold every access recorded so far
  await flushAccessCounts();
  // archiving and promoting change what memory search finds: its statistics follow in a batch
  if (!dryRun) noteSearchWrite();

  const holder = randomUUID();
  // bulk work: a step starts once no request waits for the database (lib/db/lanes.ts), and on a
  // server database holds one of the bulk lane's connections, not one that requests need
  const bulk = <T>(fn: (tx: Queryable) => Promise<T>) => asCaller(caller, fn, { lane: "bulk" });
  await claimRun(bulk, holder);

  // what the run changed so far (in a dry run, what it would have changed)
  let changes = emptyChanges(now);
  let steps = 0;
  /**
   * One step under the run's lease. `delta` says what the step's result changed: a real run keeps
   * that in a row of its own, in the step's own transaction; a dry run rolls the step back.
   */
  const step = async <T>(fn: (tx: Queryable) => Promise<T>, delta: (result: T) => Partial<RunChanges> = () => ({})): Promise<T> => {
    let part = emptyChanges(now);
    let result: T;
    try {
      result = await bulk(async (tx) => {
        if (!(await q.holdConsolidationRun(tx, { holder, leaseMs: RUN_LEASE_MS }))) throw new LeaseLost();
        const r = await fn(tx);
        part = { ...part, ...delta(r) };
        if (dryRun) throw new DryRunRollback(r);
        if (changeCount(part) > 0) await q.recordConsolidationStep(tx, { holder, step: steps, changes: part });
        return r;
      });
      steps++;
    } catch (err) {
      if (!(err instanceof DryRunRollback)) throw err;
      result = err.value as T;
    }
    changes = mergeChanges(changes, part);
    return result;
  };

  try {
    // the rules, in steps of at most `limit` rows per rule while any rule changed that many; a dry
    // run's steps roll back, so there each rule goes on after the last row its previous step took
    const promoted: ConsolidationReport["promoted"]["items"] = [];
    const ruleSize = new StepSize({ first: 100, min: 20, max: 5_000 });
    const cursor = { dailyNotes: null, expiredLearning: null, resolvedWorking: null, purgedNotes: null, promoted: null, flagged: null } as Record<
      "dailyNotes" | "expiredLearning" | "resolvedWorking" | "purgedNotes" | "promoted" | "flagged",
      string | null
    >;
    for (let more = true; more; ) {
      const limit = ruleSize.next();
      const slice = (rule: keyof typeof cursor) => ({ limit, after: dryRun ? cursor[rule] : null });
      const started = performance.now();
      const r = await step(
        async (tx) => {
          const dailyNotes = await q.archiveDailyNotes(tx, { before: addDays(today, -DAILY_NOTE_KEEP_DAYS), now, ...slice("dailyNotes") });
          const expiredLearning = await q.archiveExpiredLearning(tx, { now, ...slice("expiredLearning") });
          const resolvedWorking = await q.pruneResolvedWorking(tx, { before: daysAgo(asOf, RESOLVED_WORKING_KEEP_DAYS).toISOString(), now, ...slice("resolvedWorking") });
          const purgedNotes = await purgeExpiredNotes(tx, { now, ...slice("purgedNotes") });
          const candidates = await q.lockPromotionCandidates(tx, {
            categories: PROMOTABLE_CATEGORIES,
            minUses: PROMOTION_MIN_USES,
            minConfidence: PROMOTION_MIN_CONFIDENCE,
            createdBefore: daysAgo(asOf, PROMOTION_MIN_AGE_DAYS).toISOString(),
            ...slice("promoted"),
          });
          const promotedNow: ConsolidationReport["promoted"]["items"] = [];
          for (const c of candidates) {
            const category = promotedCategory(c.agentKind, c.category);
            const id = await q.promoteMemory(tx, { id: c.id, category, now });
            promotedNow.push({ id, agentId: c.agentId, category, title: c.title, promotedFrom: [c.id] });
          }
          const flagged = await q.flagUnverifiedCore(tx, { before: daysAgo(asOf, CORE_VERIFY_AFTER_DAYS).toISOString(), now, ...slice("flagged") });
          return { dailyNotes, expiredLearning, resolvedWorking, purgedNotes, promoted: promotedNow, flagged };
        },
        (r) => ({
          archivedDailyNotes: r.dailyNotes,
          archivedExpiredLearning: r.expiredLearning,
          prunedResolvedWorking: r.resolvedWorking,
          purgedAgentNotes: r.purgedNotes.deleted,
          promoted: r.promoted.map((p) => ({ id: p.id, from: p.promotedFrom })),
          flaggedForVerification: r.flagged,
        }),
      );
      promoted.push(...r.promoted);
      // each rule's rows come in id order: the last one is where its next step goes on
      const last = {
        dailyNotes: r.dailyNotes.at(-1),
        expiredLearning: r.expiredLearning.at(-1),
        resolvedWorking: r.resolvedWorking.at(-1),
        purgedNotes: r.purgedNotes.lastId ?? undefined,
        promoted: r.promoted.at(-1)?.promotedFrom[0],
        flagged: r.flagged.at(-1),
      };
      for (const rule of Object.keys(cursor) as (keyof typeof cursor)[]) cursor[rule] = last[rule] ?? cursor[rule];
      const counts = [r.dailyNotes.length, r.expiredLearning.length, r.resolvedWorking.length, r.purgedNotes.deleted, r.promoted.length, r.flagged.length];
      more = counts.some((n) => n >= limit);
      // the limit holds per rule: the step's size is what its busiest rule changed
      ruleSize.record(Math.max(...counts), performance.now() - started);
    }
    const { awaiting, agents } = await step(async (tx) => ({
      awaiting: await q.listAwaitingOutcomes(tx, { now, limit: AWAITING_LIST_LIMIT }),
      agents: await q.listReportableAgents(tx),
    }));

    // the reports, a few agents a step
    const written: { id: string; agentId: string; date: string; data: unknown; markdown: string }[] = [];
    const size = new StepSize({ first: 4, max: 200 });
    for (let at = 0; at < agents.length; ) {
      const slice = agents.slice(at, at + size.next());
      const started = performance.now();
      const stored = await step(
        async (tx) => {
          const out: typeof written = [];
          for (const agent of slice) {
            if (await q.reportExists(tx, { agentId: agent.id, date: reportDate })) continue;
            const { data, markdown } = await buildReport(tx, { agent, date: reportDate, timeZone });
            const row = await q.insertReport(tx, { agentId: agent.id, clientId: agent.clientId, date: reportDate, data, markdown });
            if (row) out.push({ id: row.id, agentId: agent.id, date: reportDate, data, markdown });
          }
          return out;
        },
        (out) => ({ reports: out.map((r) => r.id) }),
      );
      size.record(slice.length, performance.now() - started);
      at += slice.length;
      written.push(...stored);
    }

    const report: ConsolidationReport = {
      asOf: now,
      today,
      dryRun,
      archived: { dailyNotes: list(changes.archivedDailyNotes), expiredLearning: list(changes.archivedExpiredLearning) },
      pruned: { resolvedWorking: list(changes.prunedResolvedWorking) },
      purged: { agentNotes: { count: changes.purgedAgentNotes } },
      promoted: { count: promoted.length, items: promoted },
      flaggedForVerification: list(changes.flaggedForVerification),
      awaitingOutcomes: { count: awaiting.length, items: awaiting.map(({ clientId: _c, tags: _t, ...d }) => d) },
      reports: { date: reportDate, count: changes.reports.length, ids: changes.reports },
      changes: changeCount(changes),
    };
    // the last step: the run's audit entry, and the lease freed
    await bulk(async (tx) => {
      if (!dryRun) {
        if (!(await q.holdConsolidationRun(tx, { holder, leaseMs: RUN_LEASE_MS }))) throw new LeaseLost();
        if (report.changes > 0) await auditRun(tx, changes);
      }
      await q.releaseConsolidationRun(tx, { holder });
    });
    // the webhook never holds the job up: delivery (with its retries) carries on in the background
    void deliverReports(written.map(({ id: _id, ...r }) => r));
    return report;
  } catch (err) {
    // what the run changed so far is audited as interrupted and the lease freed (outside the
    // request: its caller may have left); when even that fails, the next run does it
    await outsideRequest(() =>
      bulk(async (tx) => {
        if (!(await q.holdConsolidationRun(tx, { holder, leaseMs: RUN_LEASE_MS }))) return;
        if (!dryRun && changeCount(changes) > 0) await auditRun(tx, changes, true);
        await q.releaseConsolidationRun(tx, { holder });
      }),
    ).catch(() => {});
    if (err instanceof LeaseLost) {
      throw new ApiError("service_unavailable", "The consolidation was interrupted (its lease ran out); what it changed is audited. Run it again to finish.");
    }
    throw err;
  }
}

/**
 * Waits until the run lease is free and takes it. What runs that stopped midway had changed (their
 * steps' rows, or the lease's progress from a run of an earlier release) is audited, as interrupted,
 * in the step that takes the lease over.
 */
async function claimRun(bulk: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>, holder: string) {
  const deadline = Date.now() + RUN_WAIT_MS;
  for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
    const claimed = await bulk(async (tx) => {
      const c = await q.claimConsolidationRun<RunChanges>(tx, { holder, leaseMs: RUN_LEASE_MS });
      if (!c) return false;
      const stopped = await q.takeStoppedRunsProgress<RunChanges>(tx, { holder });
      const unfinished = [...(c.unfinished ? [c.unfinished] : []), ...stopped.map((parts) => parts.reduce(mergeChanges))];
      for (const run of unfinished) if (changeCount(run) > 0) await auditRun(tx, run, true);
      return true;
    });
    if (claimed) return;
    if (Date.now() > deadline) throw new ApiError("service_unavailable", "Another consolidation is still running; run this one again once it has finished");
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** A rule's ids as the report lists them: sorted (the run's steps each took the next ids in order). */
const list = (ids: string[]) => ({ count: ids.length, ids: [...ids].sort() });

/** The caller the scheduler and `npm run jobs:consolidate` act as: an HQ admin named for the job. */
export const schedulerCaller: Caller = { type: "hq", userId: null, name: "consolidation job", email: null, role: "admin" };
