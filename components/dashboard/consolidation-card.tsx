"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useIsAdmin } from "@/components/shell/current-user";
import { errorMessage } from "@/lib/console/api";
import { formatDate, formatDateTime, formatRelative, plural } from "@/lib/console/format";
import { useConsolidate, useLastConsolidation } from "@/lib/console/hooks/lifecycle";
import type { ConsolidationReport } from "@/lib/lifecycle/contracts";

export interface ConsolidationSchedule {
  /** the local time of day (HH:MM) the nightly run starts */
  at: string;
  timeZone: string;
}

/** The counts a run's audit entry keeps (ids as lists, the purged notes as a number). */
type AuditedRun = Partial<Record<"archivedDailyNotes" | "archivedExpiredLearning" | "prunedResolvedWorking" | "flaggedForVerification" | "reports" | "promoted", unknown[]>> & {
  purgedAgentNotes?: number;
  interrupted?: boolean;
};

const count = (v: unknown[] | undefined) => v?.length ?? 0;

/**
 * The nightly consolidation: when it runs, what its last run changed, and (HQ admins) a preview of
 * what a run now would change — the same job with `dryRun`, which changes nothing — and a run now.
 */
export function ConsolidationCard({ schedule }: { schedule: ConsolidationSchedule }) {
  const isAdmin = useIsAdmin();
  const last = useLastConsolidation();
  const run = useConsolidate();
  const [confirming, setConfirming] = useState(false);
  const report = run.data;

  return (
    <Card data-testid="consolidation-card">
      <CardHeader
        title="Nightly consolidation"
        description={`Runs every day at ${schedule.at} (${schedule.timeZone}): archives old daily notes and unused low-confidence learnings, prunes resolved working items, purges expired notes, promotes learnings that keep being used, flags core memories nobody confirmed for 30 days, and writes each agent's report.`}
        actions={
          isAdmin && (
            <div className="flex gap-2">
              <Button variant="secondary" size="sm" loading={run.isPending && run.variables?.dryRun} disabled={run.isPending} onClick={() => run.mutate({ dryRun: true })}>
                Preview
              </Button>
              <Button size="sm" loading={run.isPending && !run.variables?.dryRun} disabled={run.isPending} onClick={() => setConfirming(true)}>
                Run now
              </Button>
            </div>
          )
        }
      />
      <CardBody className="space-y-4">
        <LastRun entry={last.data} loading={last.isPending} failed={last.isError} />
        {run.isError && <Alert tone="error">{errorMessage(run.error)}</Alert>}
        {report && !run.isPending && <ReportSummary report={report} />}
      </CardBody>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Run the consolidation now?"
        description="It applies every rule as of now, as the nightly run does; what is already done is not done again. Preview shows what it would change first."
        confirmLabel="Run now"
        tone="primary"
        onConfirm={() => run.mutateAsync({ dryRun: false })}
      />
    </Card>
  );
}

function LastRun({ entry, loading, failed }: { entry: { occurredAt: string; details: Record<string, unknown> } | null | undefined; loading: boolean; failed: boolean }) {
  if (loading) return <p className="text-sm text-slate-500">Loading the last run…</p>;
  if (failed) return <p className="text-sm text-slate-500">The last run could not be loaded.</p>;
  if (!entry) return <p className="text-sm text-slate-600">No run has changed anything yet.</p>;
  const d = entry.details as AuditedRun;
  const parts = [
    [count(d.archivedDailyNotes), "daily note archived", "daily notes archived"],
    [count(d.archivedExpiredLearning), "learning archived", "learnings archived"],
    [count(d.prunedResolvedWorking), "working item pruned", "working items pruned"],
    [d.purgedAgentNotes ?? 0, "note purged", "notes purged"],
    [count(d.promoted), "learning promoted", "learnings promoted"],
    [count(d.flaggedForVerification), "core memory flagged", "core memories flagged"],
    [count(d.reports), "report written", "reports written"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => plural(n, one, many));
  return (
    <p className="text-sm text-slate-700">
      <span className="font-medium text-slate-900">Last run that changed something:</span>{" "}
      <time dateTime={entry.occurredAt} title={formatDateTime(entry.occurredAt)}>
        {formatRelative(entry.occurredAt)}
      </time>
      {d.interrupted ? " (interrupted; the next run finishes it)" : ""} — {said.join(", ") || "nothing"}.
    </p>
  );
}

/** A run's report as counts per rule, with what needs a person linked. */
function ReportSummary({ report }: { report: ConsolidationReport }) {
  const rows: { label: string; n: number }[] = [
    { label: "Daily notes archived (older than 7 days)", n: report.archived.dailyNotes.count },
    { label: "Unused low-confidence learnings archived (expired)", n: report.archived.expiredLearning.count },
    { label: "Resolved working items pruned (resolved 14+ days ago)", n: report.pruned.resolvedWorking.count },
    { label: "Agent notes purged (past their 24 hours)", n: report.purged.agentNotes.count },
    { label: "Learnings promoted to core", n: report.promoted.count },
    { label: "Core memories flagged for verification", n: report.flaggedForVerification.count },
    // a calendar day: read at noon UTC, so no time zone moves it to the day before or after
    { label: `Nightly reports written for ${formatDate(`${report.reports.date}T12:00:00Z`)}`, n: report.reports.count },
  ];
  return (
    <section aria-label={report.dryRun ? "Preview of a run now" : "The run's report"} className="rounded-md border border-slate-200 bg-slate-50 p-4">
      <h3 className="text-sm font-semibold text-slate-900">
        {report.dryRun ? `A run now would change ${plural(report.changes, "row")} — nothing was changed` : `The run changed ${plural(report.changes, "row")}`}
      </h3>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
        {rows.map((r) => (
          <div key={r.label} className="flex items-baseline justify-between gap-3">
            <dt className="text-slate-600">{r.label}</dt>
            <dd className="font-medium text-slate-900 tabular-nums">{r.n.toLocaleString("en-US")}</dd>
          </div>
        ))}
      </dl>
      {report.promoted.items.length > 0 && (
        <div className="mt-3 text-sm">
          <p className="font-medium text-slate-900">{report.dryRun ? "Would be promoted" : "Promoted"}</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700">
            {report.promoted.items.slice(0, 5).map((p) => (
              <li key={p.promotedFrom[0]}>
                {p.title} <span className="text-slate-500">→ {p.category}</span>
              </li>
            ))}
          </ul>
          {report.promoted.items.length > 5 && <p className="mt-1 text-slate-500">and {report.promoted.items.length - 5} more</p>}
        </div>
      )}
      <p className="mt-3 text-sm text-slate-700">
        {plural(report.awaitingOutcomes.count, "decision")} still without an outcome.{" "}
        <Link href="/outcomes" className="font-medium text-indigo-600 hover:text-indigo-500">
          Outcomes →
        </Link>
      </p>
    </section>
  );
}
