// `npm run jobs:consolidate`: runs the nightly consolidation once, for external schedulers (cron,
// Kubernetes CronJob). Options: --dry-run (report, change nothing), --now <ISO time> (replay).
// The embedded database allows one process at a time: stop the server first, or call
// POST /api/v1/jobs/consolidate, which runs inside the server.
import { getDatabase } from "@/lib/db";
import { consolidate, schedulerCaller } from "@/lib/lifecycle/consolidation";
import { consolidateBody } from "@/lib/lifecycle/schemas";

async function main() {
  const at = process.argv.indexOf("--now");
  const body = consolidateBody.parse({
    ...(process.argv.includes("--dry-run") ? { dryRun: true } : {}),
    ...(at >= 0 ? { now: process.argv[at + 1] } : {}),
  });
  try {
    const r = await consolidate(schedulerCaller, body);
    console.log(`Consolidation as of ${r.asOf}${r.dryRun ? " (dry run: nothing changed)" : ""}`);
    console.log(`  daily notes archived       ${r.archived.dailyNotes.count}`);
    console.log(`  expired learning archived  ${r.archived.expiredLearning.count}`);
    console.log(`  resolved working pruned    ${r.pruned.resolvedWorking.count}`);
    console.log(`  agent notes purged         ${r.purged.agentNotes.count}`);
    console.log(`  promoted to core           ${r.promoted.count}`);
    console.log(`  flagged for verification   ${r.flaggedForVerification.count}`);
    console.log(`  decisions awaiting outcome ${r.awaitingOutcomes.count}`);
    console.log(`  reports for ${r.reports.date}     ${r.reports.count}`);
  } finally {
    await (await getDatabase()).close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
