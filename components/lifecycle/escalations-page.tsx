"use client";

import Link from "next/link";
import { useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs } from "@/components/ui/tabs";
import { capitalize, formatRelative } from "@/lib/console/format";
import { useEscalations } from "@/lib/console/hooks/lifecycle";
import type { Escalation } from "@/lib/console/lifecycle-types";
import { SEVERITY_TONE } from "./labels";
import { ResolveEscalationDialog } from "./resolve-escalation-dialog";

/**
 * Escalations from the agents, open and resolved. Open ones come most severe first, then the longest
 * waiting (the API's order). Resolving one publishes its fix in the knowledge base, so the next agent
 * that meets the same issue gets the fix at once instead of escalating.
 */
export function EscalationsPage() {
  const [status, setStatus] = useState<"open" | "resolved">("open");
  const list = useEscalations({ status });
  const counts = list.data?.counts;

  return (
    <>
      <PageHeader
        title="Escalations"
        description="What the agents could not handle. Resolve each one and capture the fix in the knowledge base, so the same issue is never escalated twice."
        meta={counts && <Badge tone="green">{counts.answeredByKnownFix} answered by a known fix</Badge>}
      />
      <Tabs
        label="Escalation status"
        value={status}
        onValueChange={(id) => setStatus(id as "open" | "resolved")}
        items={[
          { id: "open", label: "Open", badge: counts && <Badge tone="amber">{counts.open}</Badge>, content: <EscalationList query={list} status="open" /> },
          { id: "resolved", label: "Resolved", badge: counts && <Badge>{counts.resolved}</Badge>, content: <EscalationList query={list} status="resolved" /> },
        ]}
      />
    </>
  );
}

function EscalationList({ query, status }: { query: ReturnType<typeof useEscalations>; status: "open" | "resolved" }) {
  const canResolve = useCanCurate();
  const [resolving, setResolving] = useState<Escalation | null>(null);
  if (query.isPending) return <LoadingState label="Loading escalations…" rows={3} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  const items = query.data.escalations;
  if (items.length === 0) {
    return (
      <Card>
        <EmptyState
          title={status === "open" ? "No open escalations" : "Nothing resolved yet"}
          description={status === "open" ? "When an agent escalates an issue, it waits here for a person." : "Resolved escalations and the fixes they produced appear here."}
        />
      </Card>
    );
  }
  return (
    <div className="space-y-4">
      {items.map((e) => (
        <Card key={e.id} data-testid="escalation-card">
          <CardHeader
            title={e.question}
            description={`${e.clientName ? `${e.clientName} · ` : ""}${e.agentName ?? "An agent"} · raised ${formatRelative(e.createdAt)}`}
            actions={
              <>
                <Badge tone={SEVERITY_TONE[e.severity]}>{capitalize(e.severity)}</Badge>
                {e.status === "open" && canResolve && (
                  <Button size="sm" onClick={() => setResolving(e)}>
                    Resolve
                  </Button>
                )}
              </>
            }
          />
          {(e.context || e.knownFixId || e.status === "resolved") && (
            <CardBody className="space-y-3 text-sm">
              {e.context && <p className="whitespace-pre-wrap text-slate-700">{e.context}</p>}
              {e.knownFixId && (
                <p className="text-slate-700">
                  <Badge tone="green">Known fix offered</Badge>{" "}
                  <Link className="text-indigo-600 underline" href={`/knowledge/${e.knownFixId}`}>
                    Open the fix the agent received
                  </Link>
                </p>
              )}
              {e.status === "resolved" && (
                <div className="rounded-md border border-emerald-200 bg-emerald-50 p-3">
                  <p className="font-medium text-slate-900">Resolution: {e.resolution}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    Resolved by {e.resolvedByName} {formatRelative(e.resolvedAt)}
                    {e.knowledgeEntryId && (
                      <>
                        {" · "}
                        <Link className="text-indigo-600 underline" href={`/knowledge/${e.knowledgeEntryId}`}>
                          Captured in the knowledge base
                        </Link>
                      </>
                    )}
                  </p>
                </div>
              )}
            </CardBody>
          )}
        </Card>
      ))}
      <ResolveEscalationDialog escalation={resolving} onClose={() => setResolving(null)} />
    </div>
  );
}
