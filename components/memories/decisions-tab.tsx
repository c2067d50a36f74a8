"use client";

import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { actionsColumn, DataTable, type Column } from "@/components/ui/data-list";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { capitalize, formatDate, formatDateTime, formatRelative } from "@/lib/console/format";
import { useMemories } from "@/lib/console/hooks/memory";
import { useTypedFilter } from "@/lib/console/hooks/typed-filter";
import type { Memory } from "@/lib/console/memory-types";
import type { Agent } from "@/lib/console/types";
import { oneOf, useListUrl } from "@/lib/console/url-state";
import { DecisionContextView } from "./decision-context";
import { percent, STATUS_TONE } from "./labels";
import { OutcomeDialog } from "./outcome-dialog";

const PAGE_SIZE = 50;
const OUTCOMES = [
  { value: "", label: "Any outcome" },
  { value: "awaiting", label: "Awaiting an outcome" },
  { value: "worked", label: "Worked" },
  { value: "failed", label: "Didn't work" },
] as const;

/**
 * Decisions with their reasoning and, once scored, their outcomes (the decision → outcome loop): one
 * compact row each, opened in place for the reasoning; searched and filtered by outcome and status,
 * all in the address. A link to `#decision-<id>` (or `#outcome-<id>`) opens that decision.
 */
export function DecisionsTab({ agent, isAdmin }: { agent: Agent; isAdmin: boolean }) {
  const { filters: view, page, setFilters, setPage } = useListUrl({ q: "", outcome: "", status: "all" });
  const [search, setSearch] = useTypedFilter(view.q, (q) => setFilters({ q }));
  const outcome = oneOf(view.outcome, ["", "awaiting", "worked", "failed"] as const, "");
  const decisions = useMemories(
    agent.id,
    { category: "decision", status: view.status, q: view.q || undefined, outcome: outcome || undefined },
    { page, pageSize: PAGE_SIZE },
  );
  const [open, setOpen] = useState<string | null>(null);
  const [scoring, setScoring] = useState<Memory | null>(null);
  const filtered = Boolean(view.q || outcome || view.status !== "all");

  // a link to one decision (the Outcomes page's) opens it
  const target = useHashTarget();
  const linked = decisions.rows.find((d) => target === `decision-${d.id}` || (d.outcome?.outcomeId && target === `outcome-${d.outcome.outcomeId}`));
  useEffect(() => {
    if (!linked) return;
    setOpen(linked.id);
    document.getElementById(`decision-${linked.id}`)?.scrollIntoView({ block: "start" });
  }, [linked]);

  const columns: Column<Memory>[] = [
    {
      id: "decision",
      header: "Decision",
      primary: true,
      className: "min-w-64",
      cell: (d) => (
        <>
          <button type="button" onClick={() => setOpen(open === d.id ? null : d.id)} aria-expanded={open === d.id} className="text-left font-medium text-slate-900 hover:text-indigo-700">
            {d.title}
          </button>
          {d.outcome && (
            <p className="mt-0.5 line-clamp-1 text-xs text-slate-500" title={d.outcome.result}>
              Outcome: {d.outcome.result}
            </p>
          )}
        </>
      ),
    },
    {
      id: "when",
      header: "Decided",
      className: "text-xs whitespace-nowrap",
      cell: (d) => <span title={formatDateTime(d.occurredAt)}>{formatDate(d.occurredAt)}</span>,
    },
    { id: "confidence", header: "Confidence", className: "tabular-nums", cell: (d) => percent(d.confidence) },
    {
      id: "outcome",
      header: "Outcome",
      cell: (d) => (
        <span className="flex flex-wrap gap-1">
          {d.outcome ? (
            <Badge tone={d.outcome.success ? "green" : "red"}>{d.outcome.success ? "Worked" : "Didn't work"}</Badge>
          ) : (
            <Badge tone="amber">Awaiting outcome</Badge>
          )}
          {d.status !== "active" && <Badge tone={STATUS_TONE[d.status]}>{capitalize(d.status)}</Badge>}
          {d.scope === "team" && <Badge tone="blue">Team</Badge>}
        </span>
      ),
    },
    ...(isAdmin
      ? [
          actionsColumn(
            (d: Memory) =>
              !d.outcome && (
                <Button size="sm" variant="secondary" onClick={() => setScoring(d)}>
                  Record outcome
                </Button>
              ),
          ),
        ]
      : []),
  ];

  return (
    <Card>
      <CardHeader title="Decisions" description="What the agent decided and why, and — once scored — whether it worked." />
      <FilterBar
        className="grid gap-3 border-b border-slate-200 px-5 py-3 sm:grid-cols-[minmax(14rem,2fr)_repeat(2,minmax(10rem,1fr))]"
        active={[outcome, view.status !== "all"].filter(Boolean).length}
        primary={<Input type="search" aria-label="Search decisions" placeholder="Search decisions…" value={search} onChange={(e) => setSearch(e.target.value)} />}
      >
        <Select aria-label="Outcome" value={outcome} onChange={(e) => setFilters({ outcome: e.target.value })} options={OUTCOMES} />
        <Select
          aria-label="Status"
          value={view.status}
          onChange={(e) => setFilters({ status: e.target.value })}
          options={[
            { value: "all", label: "Any status" },
            { value: "active", label: "Active" },
            { value: "archived", label: "Archived" },
          ]}
        />
      </FilterBar>
      <DataTable
        list={decisions}
        onPage={setPage}
        noun={["decision", "decisions"]}
        aria-label="Decisions"
        columns={columns}
        rowProps={(d) => ({ "data-testid": "decision-row", id: `decision-${d.id}`, className: "scroll-mt-24" })}
        expanded={(d) =>
          open === d.id ? (
            <div className="space-y-3" data-testid="decision-details">
              {d.content && <p className="text-sm whitespace-pre-wrap text-slate-700">{d.content}</p>}
              {d.decisionContext && <DecisionContextView context={d.decisionContext} />}
              {d.outcome && (
                <div
                  id={d.outcome.outcomeId ? `outcome-${d.outcome.outcomeId}` : undefined}
                  className={`rounded-md border p-3 text-sm ${d.outcome.success ? "border-emerald-200 bg-emerald-50" : "border-red-200 bg-red-50"}`}
                >
                  <p className="font-medium text-slate-900">Outcome: {d.outcome.result}</p>
                  {d.outcome.notes && <p className="mt-1 text-slate-700">{d.outcome.notes}</p>}
                  <p className="mt-1 text-xs text-slate-500">Scored {formatRelative(d.outcome.scoredAt)}</p>
                </div>
              )}
              {!d.content && !d.decisionContext && !d.outcome && <p className="text-sm text-slate-500">No reasoning was recorded with this decision.</p>}
            </div>
          ) : null
        }
        empty={
          <EmptyState
            title={filtered ? "No decision matches" : "No decisions logged"}
            description={filtered ? "Try other words or another outcome." : `When ${agent.name} logs a decision, its reasoning and outcome appear here.`}
          />
        }
      />
      <OutcomeDialog agentId={agent.id} decision={scoring} onClose={() => setScoring(null)} />
    </Card>
  );
}

/** The address's fragment without its #, followed as it changes. */
function useHashTarget(): string {
  const [hash, setHash] = useState("");
  useEffect(() => {
    const read = () => setHash(decodeURIComponent(window.location.hash.slice(1)));
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  return hash;
}
