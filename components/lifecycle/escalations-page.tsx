"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DataItems } from "@/components/ui/data-list";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { Tabs } from "@/components/ui/tabs";
import { cn } from "@/lib/console/cn";
import { capitalize, formatRelative } from "@/lib/console/format";
import { useClients } from "@/lib/console/hooks/agents";
import { useEscalation, useEscalations, type EscalationFilters } from "@/lib/console/hooks/lifecycle";
import { ESCALATION_SEVERITIES, type Escalation, type EscalationSeverity } from "@/lib/console/lifecycle-types";
import { oneOf, pageNumber, useUrlState } from "@/lib/console/url-state";
import { SEVERITY_TONE } from "./labels";
import { ResolveEscalationDialog } from "./resolve-escalation-dialog";

const STATUSES = ["open", "resolved"] as const;
const PAGE_SIZE = 25;

/**
 * Escalations from the agents, open and resolved. Open ones come most severe first, then the longest
 * waiting (the API's order). Resolving one publishes its fix in the knowledge base, so the next agent
 * that meets the same issue gets the fix at once instead of escalating; its near-duplicates can be
 * resolved with it. The tab, the filters, the page and a linked escalation live in the address.
 */
export function EscalationsPage() {
  const [view, setView] = useUrlState({ status: "open", severity: "", client: "", entry: "", focus: "", page: "1" });
  const status = oneOf(view.status, STATUSES, "open");
  const severity = oneOf(view.severity, ESCALATION_SEVERITIES, "" as EscalationSeverity | "");
  const filters: EscalationFilters = { status, severity: severity || undefined, clientId: view.client || undefined, knowledgeEntryId: view.entry || undefined };
  const list = useEscalations(filters, { page: pageNumber(view.page), pageSize: PAGE_SIZE });
  const counts = list.answer?.counts;
  const clients = useClients();
  const filtered = Boolean(severity || view.client || view.entry);
  const setFilter = (changes: Partial<Record<"severity" | "client" | "entry", string | null>>) => setView({ ...changes, page: null });

  const body = (
    <>
      {view.focus && <Focused id={view.focus} onDismiss={() => setView({ focus: null })} />}
      <EscalationList list={list} status={status} filtered={filtered} onPage={(p) => setView({ page: p }, { push: true })} />
    </>
  );
  return (
    <>
      <PageHeader
        title="Escalations"
        description="What the agents could not handle. Resolve each one and capture the fix in the knowledge base, so the same issue is never escalated twice."
        meta={counts && <Badge tone="green">{counts.answeredByKnownFix} answered by a known fix</Badge>}
      />
      <FilterBar
        active={[severity, view.client, view.entry].filter(Boolean).length}
        onClear={filtered ? () => setFilter({ severity: null, client: null, entry: null }) : undefined}
      >
        <label className="text-xs font-medium text-slate-600">
          Severity
          <Select
            className="mt-1 w-40"
            value={severity}
            onChange={(e) => setFilter({ severity: e.target.value })}
            options={[{ value: "", label: "All severities" }, ...[...ESCALATION_SEVERITIES].reverse().map((s) => ({ value: s, label: capitalize(s) }))]}
          />
        </label>
        <label className="text-xs font-medium text-slate-600">
          Client
          <Select
            className="mt-1 w-52"
            value={view.client}
            onChange={(e) => setFilter({ client: e.target.value })}
            options={[
              { value: "", label: "All clients" },
              { value: "hq", label: "HQ (no client)" },
              ...(clients.data ?? []).map((c) => ({ value: c.id, label: c.name })),
            ]}
          />
        </label>
        {view.entry && (
          <p className="mb-2 text-sm text-slate-600" data-testid="entry-filter">
            Resolved with{" "}
            <Link href={`/knowledge/${view.entry}`} className="font-medium text-indigo-600 underline">
              one knowledge entry
            </Link>
          </p>
        )}
      </FilterBar>
      <Tabs
        label="Escalation status"
        value={status}
        onValueChange={(id) => setView({ status: id, page: null }, { push: true })}
        items={[
          { id: "open", label: "Open", badge: counts && <Badge tone="amber">{counts.open}</Badge>, content: status === "open" && body },
          { id: "resolved", label: "Resolved", badge: counts && <Badge>{counts.resolved}</Badge>, content: status === "resolved" && body },
        ]}
      />
    </>
  );
}

/** An escalation a link pointed at (the palette, an entry), shown first and marked, wherever it falls in the list. */
function Focused({ id, onDismiss }: { id: string; onDismiss: () => void }) {
  const escalation = useEscalation(id);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (escalation.data) ref.current?.scrollIntoView({ block: "nearest" });
  }, [escalation.data]);
  if (!escalation.data) return null;
  return (
    <div ref={ref} className="mb-6" data-testid="focused-escalation">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-700">The escalation you opened</h2>
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          Hide
        </Button>
      </div>
      <EscalationCard escalation={escalation.data} marked />
    </div>
  );
}

function EscalationList({
  list,
  status,
  filtered,
  onPage,
}: {
  list: ReturnType<typeof useEscalations>;
  status: "open" | "resolved";
  filtered: boolean;
  onPage: (page: number) => void;
}) {
  return (
    <DataItems
      list={list}
      onPage={onPage}
      noun={["escalation", "escalations"]}
      loadingLabel="Loading escalations…"
      aria-label={status === "open" ? "Open escalations" : "Resolved escalations"}
      rowKey={(e) => e.id}
      itemsClassName="space-y-4"
      estimateRowHeight={160}
      renderItem={(e) => <EscalationCard escalation={e} />}
      empty={
        <Card>
          <EmptyState
            title={filtered ? "No escalation matches these filters" : status === "open" ? "No open escalations" : "Nothing resolved yet"}
            description={
              filtered
                ? "Try another severity or client, or clear the filters."
                : status === "open"
                  ? "When an agent escalates an issue, it waits here for a person."
                  : "Resolved escalations and the fixes they produced appear here."
            }
          />
        </Card>
      }
    />
  );
}

function EscalationCard({ escalation: e, marked = false }: { escalation: Escalation; marked?: boolean }) {
  const canResolve = useCanCurate();
  const [resolving, setResolving] = useState(false);
  return (
    <Card data-testid="escalation-card" data-escalation-id={e.id} className={cn(marked && "ring-2 ring-amber-400")}>
      <CardHeader
        title={e.question}
        description={`${e.clientName ? `${e.clientName} · ` : ""}${e.agentName ?? "An agent"} · raised ${formatRelative(e.createdAt)}`}
        actions={
          <>
            <Badge tone={SEVERITY_TONE[e.severity]}>{capitalize(e.severity)}</Badge>
            {e.status === "open" && canResolve && (
              <Button size="sm" onClick={() => setResolving(true)}>
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
              <p className="font-medium whitespace-pre-wrap text-slate-900">Resolution: {e.resolution}</p>
              <p className="mt-1 text-xs text-slate-600">
                Resolved by {e.resolvedByName} {formatRelative(e.resolvedAt)}
                {e.knowledgeEntryId && (
                  <>
                    {" · "}
                    <Link className="text-indigo-700 underline" href={`/knowledge/${e.knowledgeEntryId}`}>
                      Captured in the knowledge base
                    </Link>
                    {" · "}
                    <Link className="text-indigo-700 underline" href={`/escalations?status=resolved&entry=${e.knowledgeEntryId}`}>
                      Every escalation this fix resolved
                    </Link>
                  </>
                )}
              </p>
            </div>
          )}
        </CardBody>
      )}
      {resolving && <ResolveEscalationDialog escalation={e} onClose={() => setResolving(false)} />}
    </Card>
  );
}
