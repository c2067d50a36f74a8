import "server-only";
import type { z } from "zod";
import { purgeExpiredNotes } from "@/lib/agent-log/queries";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { getConfig } from "@/lib/config";
import { asCaller } from "@/lib/db";
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

class DryRunRollback extends Error {
  constructor(readonly report: ConsolidationReport) {
    super("dry run");
  }
}

/**
 * The nightly consolidation, in one transaction as an HQ admin, serialised by an advisory lock so
 * concurrent runs (two instances, an admin call during the scheduled run) do the work once:
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
  const written: { agentId: string; date: string; data: unknown; markdown: string }[] = [];
  // "never used" and "keeps being used" read the access counters: fold every access recorded so far
  await flushAccessCounts();
  // archiving and promoting change what memory search finds: its statistics follow in a batch
  if (!dryRun) noteSearchWrite();

  // bulk work: it starts once no request waits for the database (lib/db/lanes.ts), and on a server
  // database holds one of the bulk lane's connections, not one that requests need
  const run = async () =>
    asCaller(
      caller,
      async (tx) => {
        await q.lockConsolidation(tx);
        const dailyNotes = await q.archiveDailyNotes(tx, { before: addDays(today, -DAILY_NOTE_KEEP_DAYS), now });
        const expiredLearning = await q.archiveExpiredLearning(tx, { now });
        const resolvedWorking = await q.pruneResolvedWorking(tx, { before: daysAgo(asOf, RESOLVED_WORKING_KEEP_DAYS).toISOString(), now });
        const purgedNotes = await purgeExpiredNotes(tx, { now });

        const candidates = await q.lockPromotionCandidates(tx, {
          categories: PROMOTABLE_CATEGORIES,
          minUses: PROMOTION_MIN_USES,
          minConfidence: PROMOTION_MIN_CONFIDENCE,
          createdBefore: daysAgo(asOf, PROMOTION_MIN_AGE_DAYS).toISOString(),
        });
        const promoted: ConsolidationReport["promoted"]["items"] = [];
        for (const c of candidates) {
          const category = promotedCategory(c.agentKind, c.category);
          const id = await q.promoteMemory(tx, { id: c.id, category, now });
          promoted.push({ id, agentId: c.agentId, category, title: c.title, promotedFrom: [c.id] });
        }

        const flagged = await q.flagUnverifiedCore(tx, { before: daysAgo(asOf, CORE_VERIFY_AFTER_DAYS).toISOString(), now });
        const awaiting = await q.listAwaitingOutcomes(tx, { now, limit: AWAITING_LIST_LIMIT });

        const reportIds: string[] = [];
        for (const agent of await q.listReportableAgents(tx)) {
          if (await q.reportExists(tx, { agentId: agent.id, date: reportDate })) continue;
          const { data, markdown } = await buildReport(tx, { agent, date: reportDate, timeZone });
          const stored = await q.insertReport(tx, { agentId: agent.id, clientId: agent.clientId, date: reportDate, data, markdown });
          if (stored) {
            reportIds.push(stored.id);
            written.push({ agentId: agent.id, date: reportDate, data, markdown });
          }
        }

        const changes =
          dailyNotes.length + expiredLearning.length + resolvedWorking.length + purgedNotes + promoted.length + flagged.length + reportIds.length;
        const report: ConsolidationReport = {
          asOf: now,
          today,
          dryRun,
          archived: { dailyNotes: list(dailyNotes), expiredLearning: list(expiredLearning) },
          pruned: { resolvedWorking: list(resolvedWorking) },
          purged: { agentNotes: { count: purgedNotes } },
          promoted: { count: promoted.length, items: promoted },
          flaggedForVerification: list(flagged),
          awaitingOutcomes: { count: awaiting.length, items: awaiting.map(({ clientId: _c, tags: _t, ...d }) => d) },
          reports: { date: reportDate, count: reportIds.length, ids: reportIds },
          changes,
        };
        if (dryRun) throw new DryRunRollback(report);
        if (changes > 0) {
          await recordAudit(tx, {
            action: "lifecycle.consolidate",
            targetType: "lifecycle",
            details: {
              asOf: now,
              archivedDailyNotes: dailyNotes,
              archivedExpiredLearning: expiredLearning,
              prunedResolvedWorking: resolvedWorking,
              purgedAgentNotes: purgedNotes,
              promoted: promoted.map((p) => ({ id: p.id, from: p.promotedFrom })),
              flaggedForVerification: flagged,
              reports: reportIds,
            },
          });
        }
        return report;
      },
      { lane: "bulk" },
    );

  try {
    const report = await run();
    // the webhook never holds the job up: delivery (with its retries) carries on in the background
    void deliverReports(written);
    return report;
  } catch (err) {
    if (err instanceof DryRunRollback) return err.report;
    throw err;
  }
}

const list = (ids: string[]) => ({ count: ids.length, ids });

/** The caller the scheduler and `npm run jobs:consolidate` act as: an HQ admin named for the job. */
export const schedulerCaller: Caller = { type: "hq", userId: null, name: "consolidation job", email: null, role: "admin" };
