"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { Table, TBody, Th, THead } from "@/components/ui/table";
import { AUDIT_AREAS } from "@/lib/audit/labels";
import { errorMessage } from "@/lib/console/api";
import { useAuditLog } from "@/lib/console/hooks/audit";
import { AuditRow } from "./audit-row";
import type { AuditActorType } from "@/lib/console/hooks/audit";

const PAGE_SIZE = 50;
const ACTOR_TYPES = [
  { value: "", label: "Anyone" },
  { value: "agent", label: "Agents" },
  { value: "hq_user", label: "HQ users" },
  { value: "admin_key", label: "Admin key" },
  { value: "system", label: "System" },
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A local calendar day as the instant it starts, `days` later. */
function dayStart(day: string, days = 0): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
}

/**
 * The audit log, filtered by area, actor and days (all kept in the address, so a filtered view can
 * be linked to), with names in place of ids and a CSV export of exactly what is filtered.
 */
export function AuditPage() {
  const pathname = usePathname();
  const initial = useSearchParams();
  // the filters live in state and are mirrored into the address (history.replaceState, which Next
  // keeps in step with useSearchParams), so quick successive changes never read a stale address
  const [params, setParams] = useState(() => new URLSearchParams(initial.toString()));
  const area = AUDIT_AREAS.find((a) => a.id === params.get("area"));
  const actorType = ACTOR_TYPES.some((t) => t.value === params.get("actorType")) ? (params.get("actorType") ?? "") : "";
  const actor = params.get("actor")?.trim() ?? "";
  const from = DATE.test(params.get("from") ?? "") ? params.get("from")! : "";
  const to = DATE.test(params.get("to") ?? "") ? params.get("to")! : "";
  const [actorDraft, setActorDraft] = useState(actor);
  // the filter functions below always start from the newest params, even from a timer set earlier
  const latest = useRef(params);
  latest.current = params;
  const rangeError = from && to && to < from ? "The end date is before the start date" : null;

  const apiFilters = {
    action: area?.prefixes.join(","),
    actorType: (actorType || undefined) as AuditActorType | undefined, // one of ACTOR_TYPES (checked above)
    actor: actor || undefined,
    from: from ? dayStart(from) : undefined,
    // the end day is included: entries before the next day starts
    to: to ? dayStart(to, 1) : undefined,
  };
  const filtered = Boolean(area || actorType || actor || from || to);

  const entries = useAuditLog(apiFilters, { pageSize: PAGE_SIZE, enabled: !rangeError });

  function replaceParams(next: URLSearchParams) {
    setParams(next);
    const qs = next.toString();
    window.history.replaceState(window.history.state, "", qs ? `${pathname}?${qs}` : pathname);
  }

  function setFilter(changes: Record<string, string>) {
    const next = new URLSearchParams(latest.current.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    replaceParams(next);
  }

  // the actor name applies as it is typed, once typing pauses (Enter and leaving the box apply it at once)
  const typedActor = actorDraft.trim();
  useEffect(() => {
    if (typedActor === (latest.current.get("actor")?.trim() ?? "")) return;
    const timer = setTimeout(() => setFilter({ actor: typedActor }), 400);
    return () => clearTimeout(timer);
    // setFilter reads the newest params through `latest`
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typedActor]);

  function clearFilters() {
    setActorDraft("");
    replaceParams(new URLSearchParams());
  }

  const exportQuery = new URLSearchParams(Object.entries(apiFilters).filter((e): e is [string, string] => Boolean(e[1])));
  const exportHref = `/api/v1/audit/export${exportQuery.size ? `?${exportQuery}` : ""}`;
  const rows = entries.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to agents, keys, clients, contacts, memory, knowledge, constants and users, by people and agents alike, newest first. Entries can't be edited or deleted."
        actions={
          <a href={exportHref} download className={buttonClasses({ variant: "secondary" })}>
            Export CSV
          </a>
        }
      />
      <form
        role="search"
        aria-label="Filter the audit log"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ actor: actorDraft.trim() });
        }}
      >
        <FilterBar
          active={[area, actorType, actor, from, to].filter(Boolean).length}
          trailing={
            <>
              <button type="submit" className="sr-only">
                Apply filters
              </button>
              {filtered && (
                <Button variant="ghost" size="sm" className="mb-0.5" onClick={clearFilters}>
                  Clear filters
                </Button>
              )}
              {rangeError && (
                <p id="audit-range-error" role="alert" className="w-full text-xs text-red-600">
                  {rangeError}
                </p>
              )}
            </>
          }
        >
          <label className="text-xs font-medium text-slate-600">
            Area
            <Select
              className="mt-1 w-48"
              value={area?.id ?? ""}
              onChange={(e) => setFilter({ area: e.target.value })}
              options={[{ value: "", label: "All areas" }, ...AUDIT_AREAS.map((a) => ({ value: a.id, label: a.label }))]}
            />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Actor
            <Select className="mt-1 w-36" value={actorType} onChange={(e) => setFilter({ actorType: e.target.value })} options={ACTOR_TYPES} />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Actor name
            <Input
              className="mt-1 w-44"
              value={actorDraft}
              onChange={(e) => setActorDraft(e.target.value)}
              onBlur={() => actorDraft.trim() !== actor && setFilter({ actor: actorDraft.trim() })}
              placeholder="e.g. Santos"
            />
          </label>
          <label className="text-xs font-medium text-slate-600">
            From
            <Input className="mt-1 w-40" type="date" value={from} onChange={(e) => setFilter({ from: e.target.value })} />
          </label>
          <label className="text-xs font-medium text-slate-600">
            To
            <Input
              className="mt-1 w-40"
              type="date"
              value={to}
              onChange={(e) => setFilter({ to: e.target.value })}
              invalid={Boolean(rangeError)}
              aria-describedby={rangeError ? "audit-range-error" : undefined}
            />
          </label>
        </FilterBar>
      </form>

      <Card>
        {rangeError ? (
          <EmptyState title="Check the dates" description={rangeError} />
        ) : entries.isPending ? (
          <LoadingState label="Loading the audit log…" rows={8} />
        ) : !entries.data ? (
          <ErrorState error={entries.error} onRetry={() => entries.refetch()} retrying={entries.isFetching} />
        ) : rows.length === 0 ? (
          <EmptyState
            title={filtered ? "No entries match these filters" : "Nothing recorded yet"}
            description={filtered ? "Widen the dates, pick another area, or clear the filters." : "Changes made in the console and through the API appear here."}
            action={
              filtered && (
                <Button variant="secondary" onClick={clearFilters}>
                  Clear filters
                </Button>
              )
            }
          />
        ) : (
          <>
            <Table cards>
              <THead>
                <tr>
                  <Th>Time</Th>
                  <Th>Actor</Th>
                  <Th>Action</Th>
                  <Th>Target</Th>
                  <Th>Client</Th>
                  <Th className="text-right">
                    <span className="sr-only">Details</span>
                  </Th>
                </tr>
              </THead>
              <TBody>
                {rows.map((entry) => (
                  <AuditRow key={entry.id} entry={entry} />
                ))}
              </TBody>
            </Table>
            <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-5 py-3 text-sm text-slate-500">
              <span>
                {rows.length.toLocaleString("en-US")} entr{rows.length === 1 ? "y" : "ies"}
                {filtered ? " matching the filters" : ""}
                {entries.hasNextPage ? " so far" : ""}
              </span>
              {entries.isError && (
                <span role="alert" className="text-red-600">
                  {entries.isFetchNextPageError ? "Couldn't load more: " : "Couldn't refresh: "}
                  {errorMessage(entries.error)}
                </span>
              )}
              {entries.hasNextPage ? (
                <Button variant="secondary" size="sm" onClick={() => entries.fetchNextPage()} loading={entries.isFetchingNextPage}>
                  Load more
                </Button>
              ) : (
                <span>End of the log</span>
              )}
            </div>
          </>
        )}
      </Card>
    </>
  );
}
