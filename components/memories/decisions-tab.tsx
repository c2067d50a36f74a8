"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { capitalize, formatDateTime, formatRelative } from "@/lib/console/format";
import { useMemories } from "@/lib/console/hooks/memory";
import type { Memory } from "@/lib/console/memory-types";
import type { Agent } from "@/lib/console/types";
import { DecisionContextView } from "./decision-context";
import { percent, STATUS_TONE } from "./labels";
import { OutcomeDialog } from "./outcome-dialog";

/** Decisions with their reasoning and, once scored, their outcomes (the decision → outcome loop). */
export function DecisionsTab({ agent, isAdmin }: { agent: Agent; isAdmin: boolean }) {
  const decisions = useMemories(agent.id, { category: "decision", status: "all", limit: 200 });
  const [scoring, setScoring] = useState<Memory | null>(null);

  if (decisions.isPending) return <LoadingState label="Loading decisions…" rows={4} />;
  if (decisions.isError) return <ErrorState error={decisions.error} onRetry={() => decisions.refetch()} retrying={decisions.isFetching} />;
  const list = decisions.data.memories;
  if (list.length === 0) {
    return (
      <Card>
        <EmptyState title="No decisions logged" description={`When ${agent.name} logs a decision, its reasoning and outcome appear here.`} />
      </Card>
    );
  }
  const awaiting = list.filter((d) => !d.outcome).length;

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-500">
        {list.length} decision{list.length === 1 ? "" : "s"}; {awaiting} awaiting an outcome.
      </p>
      {list.map((d) => (
        <Card key={d.id} id={`decision-${d.id}`} data-testid="decision-card" className="scroll-mt-6">
          <CardHeader
            title={d.title}
            description={
              <>
                {formatDateTime(d.occurredAt)} · confidence {percent(d.confidence)}
                {d.scope === "team" ? " · team" : ""}
              </>
            }
            actions={
              <>
                {d.status !== "active" && <Badge tone={STATUS_TONE[d.status]}>{capitalize(d.status)}</Badge>}
                {d.outcome ? (
                  <Badge tone={d.outcome.success ? "green" : "red"}>{d.outcome.success ? "Worked" : "Didn't work"}</Badge>
                ) : (
                  <Badge tone="amber">Awaiting outcome</Badge>
                )}
              </>
            }
          />
          <CardBody className="space-y-3">
            {d.content && <p className="text-sm whitespace-pre-wrap text-slate-700">{d.content}</p>}
            {d.decisionContext && <DecisionContextView context={d.decisionContext} />}
            {d.outcome ? (
              <div
                id={d.outcome.outcomeId ? `outcome-${d.outcome.outcomeId}` : undefined}
                className={`rounded-md border p-3 text-sm ${d.outcome.success ? "border-emerald-200 bg-emerald-50" : "border-red-200 bg-red-50"}`}>
                <p className="font-medium text-slate-900">Outcome: {d.outcome.result}</p>
                {d.outcome.notes && <p className="mt-1 text-slate-700">{d.outcome.notes}</p>}
                <p className="mt-1 text-xs text-slate-500">Scored {formatRelative(d.outcome.scoredAt)}</p>
              </div>
            ) : (
              isAdmin && (
                <Button size="sm" variant="secondary" onClick={() => setScoring(d)}>
                  Record outcome
                </Button>
              )
            )}
          </CardBody>
        </Card>
      ))}
      <OutcomeDialog agentId={agent.id} decision={scoring} onClose={() => setScoring(null)} />
    </div>
  );
}
