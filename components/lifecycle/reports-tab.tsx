"use client";

import { useState } from "react";
import { Markdown } from "@/components/memories/markdown";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { Select } from "@/components/ui/select";
import { formatDateTime } from "@/lib/console/format";
import { useAgentReport, useAgentReports } from "@/lib/console/hooks/lifecycle";
import type { AgentReport } from "@/lib/console/lifecycle-types";
import type { Agent } from "@/lib/console/types";

const localToday = () => new Date().toLocaleDateString("en-CA");

/** The agent's nightly reports: the stored ones the consolidation wrote, and today so far (computed on demand). */
export function ReportsTab({ agent }: { agent: Agent }) {
  const reports = useAgentReports(agent.id);
  const [picked, setPicked] = useState<string | null>(null);
  const stored = reports.data?.reports ?? [];
  const today = localToday();
  const date = picked ?? stored[0]?.date ?? today;
  const report = useAgentReport(agent.id, date);

  if (reports.isPending) return <LoadingState label="Loading reports…" rows={3} />;
  if (reports.isError) return <ErrorState error={reports.error} onRetry={() => reports.refetch()} retrying={reports.isFetching} />;
  const options = [
    ...(stored.some((r) => r.date === today) ? [] : [{ value: today, label: `${today} (today so far)` }]),
    ...stored.map((r) => ({ value: r.date, label: r.date })),
  ];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-500">
          {stored.length} nightly report{stored.length === 1 ? "" : "s"} stored; the consolidation writes one for each day.
        </p>
        <div className="w-full sm:w-60">
          <Select aria-label="Report date" value={date} onChange={(e) => setPicked(e.target.value)} options={options} />
        </div>
      </div>
      {report.isPending ? (
        <LoadingState label="Loading the report…" rows={4} />
      ) : report.isError ? (
        <ErrorState error={report.error} onRetry={() => report.refetch()} retrying={report.isFetching} />
      ) : (
        <ReportView report={report.data.report} />
      )}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md border border-slate-200 px-3 py-2">
      <p className="text-xs text-slate-500">{label}</p>
      <p className="text-lg font-semibold text-slate-900 tabular-nums">{value}</p>
    </div>
  );
}

function ReportView({ report }: { report: AgentReport }) {
  return (
    <Card data-testid="agent-report">
      <CardHeader
        title={`Report for ${report.date}`}
        description={report.stored ? `Written ${formatDateTime(report.generatedAt)}` : "Not stored yet: computed now from the day so far"}
        actions={report.stored ? <Badge tone="green">Stored</Badge> : <Badge tone="amber">Live</Badge>}
      />
      <CardBody className="space-y-4">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          <Figure label="Learned" value={report.learned.total} />
          <Figure label="Decisions" value={report.decisions.made.length} />
          <Figure label="Awaiting outcomes" value={report.decisions.awaitingOutcomes.length} />
          <Figure label="Retrievals" value={report.retrieval.calls} />
          <Figure label="Escalations" value={report.escalations.raised.length} />
          <Figure label="Suggestions" value={report.suggestions.proposed} />
        </div>
        <Markdown>{report.markdown}</Markdown>
      </CardBody>
    </Card>
  );
}
