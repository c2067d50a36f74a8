"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-list";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { pageRows } from "@/lib/console/hooks/paged-list";
import { useListUrl } from "@/lib/console/url-state";
import { formatRelative } from "@/lib/console/format";
import { useOutcomes } from "@/lib/console/hooks/lifecycle";
import type { OutcomesOverview } from "@/lib/console/lifecycle-types";
import { rate } from "./labels";

const PAGE_SIZE = 50;
const decisionHref = (agentId: string, id: string) => `/agents/${agentId}?tab=decisions#decision-${id}`;

/** Decisions → outcomes across agents: what still awaits an outcome, and how often decisions work out. */
export function OutcomesPage() {
  const outcomes = useOutcomes();
  return (
    <>
      <PageHeader
        title="Outcomes"
        description="Every decision an agent logs should be scored once its result is known. Oldest unscored decisions first; success rates per agent and per tag."
      />
      {outcomes.isPending ? (
        <Card>
          <LoadingState label="Loading outcomes…" />
        </Card>
      ) : outcomes.isError ? (
        <Card>
          <ErrorState error={outcomes.error} onRetry={() => outcomes.refetch()} retrying={outcomes.isFetching} />
        </Card>
      ) : (
        <OutcomesBody data={outcomes.data} />
      )}
    </>
  );
}

function OutcomesBody({ data }: { data: OutcomesOverview }) {
  const view = useListUrl({});
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Awaiting outcomes" description={`${data.awaiting.length} decision${data.awaiting.length === 1 ? "" : "s"} without an outcome, oldest first.`} />
        <DataTable
          list={pageRows(data.awaiting, view.page, PAGE_SIZE)}
          onPage={view.setPage}
          noun={["decision", "decisions"]}
          aria-label="Decisions awaiting outcomes"
          columns={[
            {
              id: "decision",
              header: "Decision",
              primary: true,
              cell: (d) => (
                <Link className="font-medium text-indigo-700 hover:underline" href={decisionHref(d.agentId, d.id)}>
                  {d.title}
                </Link>
              ),
            },
            { id: "agent", header: "Agent", className: "text-slate-600", cell: (d) => d.agentName },
            {
              id: "age",
              header: "Age",
              className: "text-right whitespace-nowrap tabular-nums",
              headerClassName: "text-right",
              cell: (d) => (
                <Badge tone={d.ageDays >= 14 ? "red" : d.ageDays >= 7 ? "amber" : "neutral"}>
                  {d.ageDays} day{d.ageDays === 1 ? "" : "s"}
                </Badge>
              ),
            },
          ]}
          empty={<EmptyState title="Every decision has its outcome" description="Decisions agents log appear here until someone records what happened." />}
        />
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Success rate" description="Per agent, and per tag of its decisions: successes among scored decisions." />
          {data.rates.length === 0 ? (
            <EmptyState title="No decisions yet" description="Rates appear once agents log decisions." />
          ) : (
            <Table cards aria-label="Success rate per agent and category">
              <THead>
                <Tr>
                  <Th>Agent · tag</Th>
                  <Th className="text-right">Decisions</Th>
                  <Th className="text-right">Scored</Th>
                  <Th className="text-right">Success</Th>
                </Tr>
              </THead>
              <TBody>
                {data.rates.map((r) => (
                  <Tr key={`${r.agentId}-${r.category ?? "*"}`}>
                    <Td primary>
                      {r.category === null ? (
                        <span className="font-medium text-slate-900">{r.agentName}</span>
                      ) : (
                        <span className="inline-block pl-4 text-slate-600">#{r.category}</span>
                      )}
                    </Td>
                    <Td label="Decisions" className="text-right tabular-nums">{r.decisions}</Td>
                    <Td label="Scored" className="text-right tabular-nums">{r.scored}</Td>
                    <Td label="Success" className="text-right tabular-nums">{rate(r.successRate)}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
        <Card>
          <CardHeader title="Recent outcomes" description="The latest scored decisions and what happened." />
          {data.recent.length === 0 ? (
            <EmptyState title="No outcomes recorded yet" description="Record an outcome on an agent's Decisions tab." />
          ) : (
            <ul className="divide-y divide-slate-100" aria-label="Recent outcomes">
              {data.recent.map((d) => (
                <li key={d.id} className="px-5 py-3 text-sm">
                  <div className="flex items-start justify-between gap-3">
                    <Link className="font-medium text-indigo-700 hover:underline" href={decisionHref(d.agentId, d.id)}>
                      {d.title}
                    </Link>
                    <Badge tone={d.success ? "green" : "red"}>{d.success ? "Worked" : "Didn't work"}</Badge>
                  </div>
                  <p className="mt-1 text-slate-600">
                    {d.outcomeId ? (
                      <Link className="hover:underline" href={`/agents/${d.agentId}?tab=decisions#outcome-${d.outcomeId}`}>
                        Outcome: {d.result}
                      </Link>
                    ) : (
                      <>Outcome: {d.result}</>
                    )}
                  </p>
                  <p className="text-xs text-slate-500">
                    {d.agentName} · scored {formatRelative(d.scoredAt)}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
