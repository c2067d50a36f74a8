"use client";

import Link from "next/link";
import { useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { DataItems } from "@/components/ui/data-list";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs } from "@/components/ui/tabs";
import { capitalize, formatRelative } from "@/lib/console/format";
import { useEscalationCounts, useEscalations } from "@/lib/console/hooks/lifecycle";
import { oneOf, useListUrl } from "@/lib/console/url-state";
import type { Escalation } from "@/lib/console/lifecycle-types";
import { SEVERITY_TONE } from "./labels";
import { ResolveEscalationDialog } from "./resolve-escalation-dialog";

/**
 * Escalations from the agents, open and resolved. Open ones come most severe first, then the longest
 * waiting (the API's order). Resolving one publishes its fix in the knowledge base, so the next agent
 * that meets the same issue gets the fix at once instead of escalating.
 */
const PAGE_SIZE = 25;
const TABS = ["open", "resolved"] as const;

export function EscalationsPage() {
  // the tab and its page are in the address: /escalations?status=resolved&page=2
  const { filters, page, setFilters, setPage } = useListUrl({ status: "open" });
  const status = oneOf(filters.status, TABS, "open");
  const list = useEscalations({ status }, { page, pageSize: PAGE_SIZE });
  const counts = useEscalationCounts().data;

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
        onValueChange={(id) => setFilters({ status: id }, { push: true })}
        items={[
          { id: "open", label: "Open", badge: counts && <Badge tone="amber">{counts.open}</Badge>, content: <EscalationList list={list} status="open" onPage={setPage} /> },
          { id: "resolved", label: "Resolved", badge: counts && <Badge>{counts.resolved}</Badge>, content: <EscalationList list={list} status="resolved" onPage={setPage} /> },
        ]}
      />
    </>
  );
}

function EscalationList({ list, status, onPage }: { list: ReturnType<typeof useEscalations>; status: "open" | "resolved"; onPage: (page: number) => void }) {
  const canResolve = useCanCurate();
  const [resolving, setResolving] = useState<Escalation | null>(null);
  return (
    <>
      <DataItems
        list={list}
        onPage={onPage}
        noun={["escalation", "escalations"]}
        aria-label={status === "open" ? "Open escalations" : "Resolved escalations"}
        itemsClassName="space-y-4"
        empty={
          <Card>
            <EmptyState
              title={status === "open" ? "No open escalations" : "Nothing resolved yet"}
              description={status === "open" ? "When an agent escalates an issue, it waits here for a person." : "Resolved escalations and the fixes they produced appear here."}
            />
          </Card>
        }
        renderItem={(e) => <EscalationCard escalation={e} onResolve={canResolve && e.status === "open" ? () => setResolving(e) : undefined} />}
      />
      <ResolveEscalationDialog escalation={resolving} onClose={() => setResolving(null)} />
    </>
  );
}

function EscalationCard({ escalation: e, onResolve }: { escalation: Escalation; onResolve?: () => void }) {
  return (
    <Card data-testid="escalation-card">
      <CardHeader
        title={e.question}
        description={`${e.clientName ? `${e.clientName} · ` : ""}${e.agentName ?? "An agent"} · raised ${formatRelative(e.createdAt)}`}
        actions={
          <>
            <Badge tone={SEVERITY_TONE[e.severity]}>{capitalize(e.severity)}</Badge>
            {onResolve && (
              <Button size="sm" onClick={onResolve}>
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
  );
}
