import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { getConfig } from "@/lib/config";
import { asCaller } from "@/lib/db";
import { isSchemaNotReady } from "@/lib/db/migrate";
import { todayIn } from "@/lib/documents/today";
import { consolidate, schedulerCaller } from "./consolidation";
import * as q from "./queries";
import { addDays } from "./rules";
import type { ConsolidationReport } from "./contracts";
import { processWide } from "@/lib/process-wide";

const JOB = "consolidate";
const TICK_MS = 60_000;
/** a holder that crashed mid-run loses the lease after this long */
const LEASE_SECONDS = 30 * 60;

const state = processWide<{ timer?: NodeJS.Timeout }>("scheduler", () => ({}));

/** The time of day (HH:MM) it is at `now` in the time zone. */
export function localTime(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(now);
}

/**
 * One scheduler tick: once it is CONSOLIDATE_AT or later in DAILY_NOTE_TIMEZONE, the instance that
 * claims the day's lease runs the consolidation; every other instance (and every later tick that
 * day) finds the day claimed and does nothing. A failed run gives the day back for the next tick.
 */
export async function runIfDue(holder: string, now = new Date()): Promise<ConsolidationReport | null> {
  const { CONSOLIDATE_AT, DAILY_NOTE_TIMEZONE } = getConfig();
  if (localTime(DAILY_NOTE_TIMEZONE, now) < CONSOLIDATE_AT) return null;
  const day = todayIn(DAILY_NOTE_TIMEZONE, now);
  const claimed = await asCaller(schedulerCaller, (tx) => q.claimDailyLease(tx, { name: JOB, holder, day, leaseSeconds: LEASE_SECONDS }));
  if (!claimed) return null;
  try {
    const report = await consolidate(schedulerCaller, { now: now.toISOString() });
    await asCaller(schedulerCaller, (tx) => q.releaseLease(tx, { name: JOB, holder, report: summary(report), ranFor: day }));
    return report;
  } catch (err) {
    await asCaller(schedulerCaller, (tx) =>
      q.releaseLease(tx, { name: JOB, holder, report: { error: (err as Error).message }, ranFor: addDays(day, -1) }),
    );
    throw err;
  }
}

const summary = (r: ConsolidationReport) => ({
  asOf: r.asOf,
  changes: r.changes,
  dailyNotes: r.archived.dailyNotes.count,
  expiredLearning: r.archived.expiredLearning.count,
  resolvedWorking: r.pruned.resolvedWorking.count,
  agentNotes: r.purged.agentNotes.count,
  promoted: r.promoted.count,
  flagged: r.flaggedForVerification.count,
  awaitingOutcomes: r.awaitingOutcomes.count,
  reports: r.reports.count,
});

/**
 * Starts the in-app timer (from instrumentation.ts, Node runtime only). It never blocks the start:
 * the first tick comes a minute later. Off when CONSOLIDATE_SCHEDULER=false and under test runners.
 */
export function startConsolidationScheduler(): void {
  const config = getConfig();
  if (!config.CONSOLIDATE_SCHEDULER || process.env.NODE_ENV === "test" || process.env.VITEST || state.timer) return;
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const tick = async () => {
    try {
      const report = await runIfDue(holder);
      if (report) console.log(`[memory-hq] consolidation ran: ${report.changes} changes, ${report.reports.count} reports`);
    } catch (err) {
      // an unmigrated server database is logged once where it is found (lib/db), not every minute here
      if (isSchemaNotReady(err)) return;
      console.error("[memory-hq] consolidation failed:", err);
    }
  };
  state.timer = setInterval(() => void tick(), TICK_MS);
  state.timer.unref();
}

/** Stops the timer (a graceful shutdown): a run already under way finishes in its transaction. */
export function stopConsolidationScheduler(): void {
  if (state.timer) clearInterval(state.timer);
  state.timer = undefined;
}
