"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { actionsColumn, DataTable, type Column } from "@/components/ui/data-list";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { useUndoable } from "@/components/ui/toast";
import { capitalize, formatDateTime, formatRelative } from "@/lib/console/format";
import { useMemories, useUpdateMemory } from "@/lib/console/hooks/memory";
import { useTypedFilter } from "@/lib/console/hooks/typed-filter";
import { useListUrl } from "@/lib/console/url-state";
import { CATEGORIES_BY_TIER, MEMORY_STATUSES, MEMORY_TIERS, type Memory, type MemoryTier } from "@/lib/console/memory-types";
import type { Agent } from "@/lib/console/types";
import { percent, STATUS_TONE, TIER_LABEL, TIER_TONE } from "./labels";
import { MemoryDetails } from "./memory-details";
import { ReembedBanner } from "./reembed-banner";

const PAGE_SIZE = 50;

/** The agent's memories by tier, category, status and scope, with full-text search; the filters and page are in the address. */
export function MemoriesTab({ agent, isAdmin }: { agent: Agent; isAdmin: boolean }) {
  const { filters: view, page, setFilters, setPage } = useListUrl({ tier: "", category: "", status: "active", scope: "", q: "" });
  const [search, setSearch] = useTypedFilter(view.q, (q) => setFilters({ q }));
  const [open, setOpen] = useState<string | null>(null);
  const tier = view.tier;
  const filters = { tier: tier || undefined, category: view.category || undefined, status: view.status, scope: view.scope || undefined, q: view.q || undefined };
  const memories = useMemories(agent.id, filters, { page, pageSize: PAGE_SIZE });
  const update = useUpdateMemory(agent.id);
  const undoable = useUndoable();

  const categories = tier ? (CATEGORIES_BY_TIER[tier as MemoryTier] ?? []) : MEMORY_TIERS.flatMap((t) => CATEGORIES_BY_TIER[t]);
  const filtered = Boolean(tier || view.category || view.scope || view.q || view.status !== "active");

  /** Archiving and resolving are taken back with Undo (the memory becomes active again); restoring needs none. */
  function changeStatus(m: Memory, next: "active" | "archived" | "resolved") {
    if (next === "active") {
      void undoable({
        act: () => update.mutateAsync({ id: m.id, status: "active", expectedVersion: m.version }),
        done: () => `Restored “${m.title}”`,
        undo: (r) => update.mutateAsync({ id: m.id, status: m.status, expectedVersion: r.memory.version }),
        undone: `“${m.title}” is ${m.status} again`,
        failed: `Couldn't restore “${m.title}”`,
      });
      return;
    }
    void undoable({
      act: () => update.mutateAsync({ id: m.id, status: next, expectedVersion: m.version }),
      done: () => `${next === "archived" ? "Archived" : "Resolved"} “${m.title}”`,
      undo: (r) => update.mutateAsync({ id: m.id, status: "active", expectedVersion: r.memory.version }),
      undone: `“${m.title}” is active again`,
      failed: `Couldn't ${next === "archived" ? "archive" : "resolve"} “${m.title}”`,
    });
  }

  return (
    <div className="space-y-4">
      {isAdmin && <ReembedBanner />}
      <Card>
        <CardHeader
          title="Memories"
          description="Core, working and learning memories. Past 200 active memories the least valuable are archived, never core."
          actions={
            <a href={`/api/v1/agents/${agent.id}/export`} download className={buttonClasses({ variant: "secondary", size: "sm" })}>
              Export memory folder (zip)
            </a>
          }
        />
        <FilterBar
          className="grid gap-3 border-b border-slate-200 px-5 py-3 sm:grid-cols-2 lg:grid-cols-[minmax(14rem,2fr)_repeat(4,minmax(9.5rem,1fr))]"
          active={[tier, view.category, view.scope, view.status !== "active"].filter(Boolean).length}
          primary={<Input type="search" aria-label="Search memories" placeholder="Search title and content…" value={search} onChange={(e) => setSearch(e.target.value)} />}
        >
          <Select
            aria-label="Tier"
            value={tier}
            onChange={(e) => setFilters({ tier: e.target.value, category: null })}
            options={[{ value: "", label: "All tiers" }, ...MEMORY_TIERS.map((t) => ({ value: t, label: TIER_LABEL[t] }))]}
          />
          <Select
            aria-label="Category"
            value={view.category}
            onChange={(e) => setFilters({ category: e.target.value })}
            options={[{ value: "", label: "All categories" }, ...categories.map((c) => ({ value: c, label: capitalize(c) }))]}
          />
          <Select
            aria-label="Status"
            value={view.status}
            onChange={(e) => setFilters({ status: e.target.value })}
            options={[...MEMORY_STATUSES.map((s) => ({ value: s, label: capitalize(s) })), { value: "all", label: "Any status" }]}
          />
          <Select
            aria-label="Scope"
            value={view.scope}
            onChange={(e) => setFilters({ scope: e.target.value })}
            options={[
              { value: "", label: "Any scope" },
              { value: "agent", label: "Private" },
              ...(agent.kind === "internal" ? [{ value: "team", label: "Team" }] : []),
            ]}
          />
        </FilterBar>
        <DataTable
          list={memories}
          onPage={setPage}
          noun={["memory", "memories"]}
          aria-label="Memories"
          columns={memoryColumns({ isAdmin, open, toggle: (id) => setOpen(open === id ? null : id), busy: (id) => update.isPending && update.variables?.id === id, onStatus: changeStatus })}
          rowProps={() => ({ "data-testid": "memory-row" })}
          expanded={(m) => (open === m.id ? <MemoryDetails memory={m} /> : null)}
          empty={
            <EmptyState
              title={filtered ? "No memories match" : "No memories yet"}
              description={filtered ? "Try another filter or search." : `${agent.name} hasn't written any memories.`}
            />
          }
        />
      </Card>
    </div>
  );
}

function memoryColumns({
  isAdmin,
  open,
  toggle,
  busy,
  onStatus,
}: {
  isAdmin: boolean;
  open: string | null;
  toggle: (id: string) => void;
  busy: (id: string) => boolean;
  onStatus: (m: Memory, s: "active" | "archived" | "resolved") => void;
}): Column<Memory>[] {
  return [
    {
      id: "memory",
      header: "Memory",
      primary: true,
      className: "max-w-md",
      cell: (m) => (
        <>
          <button type="button" onClick={() => toggle(m.id)} aria-expanded={open === m.id} className="text-left font-medium text-slate-900 hover:text-indigo-700">
            {m.title}
          </button>
          <div className="mt-1 flex flex-wrap gap-1">
            {m.scope === "team" && <Badge tone="blue">Team</Badge>}
            {m.tags.slice(0, 4).map((t) => (
              <Badge key={t}>{t}</Badge>
            ))}
            {!m.embedded && <Badge tone="amber">Queued for embedding</Badge>}
          </div>
        </>
      ),
    },
    {
      id: "tier",
      header: "Tier",
      cell: (m) => (
        <>
          <Badge tone={TIER_TONE[m.tier]}>{TIER_LABEL[m.tier]}</Badge>
          <span className="mt-1 block text-xs text-slate-500">{capitalize(m.category)}</span>
        </>
      ),
    },
    {
      id: "confidence",
      header: "Confidence",
      className: "tabular-nums",
      cell: (m) => (
        <>
          {percent(m.confidence)}
          {m.expiresAt && m.status === "active" && <span className="block text-xs text-amber-700">expires {formatRelative(m.expiresAt)}</span>}
        </>
      ),
    },
    {
      id: "status",
      header: "Status",
      cell: (m) => (
        <>
          <Badge tone={STATUS_TONE[m.status]}>{capitalize(m.status)}</Badge>
          {m.archiveReason === "cap" && <span className="block text-xs text-slate-500">over the cap</span>}
        </>
      ),
    },
    { id: "used", header: "Used", className: "tabular-nums", cell: (m) => `${m.accessedCount}×` },
    {
      id: "written",
      header: "Written",
      className: "whitespace-nowrap",
      cell: (m) => (
        <>
          <span title={formatDateTime(m.createdAt)}>{formatRelative(m.createdAt)}</span>
          {m.createdByName && <span className="block text-xs text-slate-500">by {m.createdByName}</span>}
        </>
      ),
    },
    // archiving and resolving are undone from their toast: no confirmation first
    ...(isAdmin
      ? [
          actionsColumn((m: Memory) =>
            m.status === "active" ? (
              <>
                {m.tier === "working" && (
                  <Button size="sm" variant="ghost" disabled={busy(m.id)} onClick={() => onStatus(m, "resolved")}>
                    Resolve
                  </Button>
                )}
                <Button size="sm" variant="ghost" disabled={busy(m.id)} onClick={() => onStatus(m, "archived")}>
                  Archive
                </Button>
              </>
            ) : (
              <Button size="sm" variant="ghost" disabled={busy(m.id)} onClick={() => onStatus(m, "active")}>
                Restore
              </Button>
            )),
        ]
      : []),
  ];
}
