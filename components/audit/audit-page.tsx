"use client";

import { Button, buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { DataTable, type Column } from "@/components/ui/data-list";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { AUDIT_AREAS } from "@/lib/audit/labels";
import { useAuditLog } from "@/lib/console/hooks/audit";
import { AuditRow } from "./audit-row";
import type { AuditActorType } from "@/lib/console/hooks/audit";
import { useTypedFilter } from "@/lib/console/hooks/typed-filter";
import type { AuditEntry } from "@/lib/console/types";
import { oneOf, useListUrl } from "@/lib/console/url-state";

const PAGE_SIZE = 50;
const ACTOR_TYPES = [
  { value: "", label: "Anyone" },
  { value: "agent", label: "Agents" },
  { value: "hq_user", label: "HQ users" },
  { value: "admin_key", label: "Admin key" },
  { value: "system", label: "System" },
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

// the headings; each row draws its own cells (AuditRow), with its details under it
const COLUMNS: Column<AuditEntry>[] = [
  { id: "time", header: "Time", cell: () => null },
  { id: "actor", header: "Actor", cell: () => null },
  { id: "action", header: "Action", cell: () => null },
  { id: "target", header: "Target", cell: () => null },
  { id: "client", header: "Client", cell: () => null },
  { id: "details", header: <span className="sr-only">Details</span>, headerClassName: "text-right", cell: () => null },
];

/** A local calendar day as the instant it starts, `days` later. */
function dayStart(day: string, days = 0): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
}

/**
 * The audit log, filtered by area, actor and days (all kept in the address with the page, so a
 * filtered view can be linked to), with names in place of ids and a CSV export of exactly what is filtered.
 */
export function AuditPage() {
  const { filters: view, page, setFilters, setPage } = useListUrl({ area: "", actorType: "", actor: "", from: "", to: "" });
  const area = AUDIT_AREAS.find((a) => a.id === view.area);
  const actorType = oneOf(view.actorType, ACTOR_TYPES.map((t) => t.value), "");
  const actor = view.actor.trim();
  const from = DATE.test(view.from) ? view.from : "";
  const to = DATE.test(view.to) ? view.to : "";
  // the actor name applies as it is typed, once typing pauses (Enter and leaving the box apply it at once)
  const [actorDraft, setActorDraft] = useTypedFilter(actor, (value) => setFilters({ actor: value }), 400);
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

  const entries = useAuditLog(apiFilters, { page, pageSize: PAGE_SIZE, enabled: !rangeError });
  const setFilter = (changes: Record<string, string>) => setFilters(changes);

  function clearFilters() {
    setActorDraft("");
    setFilters({ area: null, actorType: null, actor: null, from: null, to: null });
  }

  const exportQuery = new URLSearchParams(Object.entries(apiFilters).filter((e): e is [string, string] => Boolean(e[1])));
  const exportHref = `/api/v1/audit/export${exportQuery.size ? `?${exportQuery}` : ""}`;

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
        ) : (
          <DataTable
            list={entries}
            onPage={setPage}
            noun={["entry", "entries"]}
            loadingLabel="Loading the audit log…"
            aria-label="Audit log"
            columns={COLUMNS}
            renderRow={(entry, place) => <AuditRow entry={entry} place={place} />}
            empty={
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
            }
          />
        )}
      </Card>
    </>
  );
}
