"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { Select } from "@/components/ui/select";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { errorMessage } from "@/lib/console/api";
import { capitalize, formatDateTime, formatRelative } from "@/lib/console/format";
import { useMemories, useUpdateMemory } from "@/lib/console/hooks/memory";
import { CATEGORIES_BY_TIER, MEMORY_STATUSES, MEMORY_TIERS, type Memory, type MemoryTier } from "@/lib/console/memory-types";
import type { Agent } from "@/lib/console/types";
import { percent, STATUS_TONE, TIER_LABEL, TIER_TONE } from "./labels";
import { MemoryDetails } from "./memory-details";
import { ReembedBanner } from "./reembed-banner";
import { useDebounced } from "@/components/ui/use-debounced";

const PAGE = 50;

/** The agent's memories by tier, category, status and scope, with full-text search. */
export function MemoriesTab({ agent, isAdmin }: { agent: Agent; isAdmin: boolean }) {
  const [tier, setTier] = useState("");
  const [category, setCategory] = useState("");
  const [status, setStatus] = useState("active");
  const [scope, setScope] = useState("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const q = useDebounced(search.trim(), 300);
  const filters = { tier: tier || undefined, category: category || undefined, status, scope: scope || undefined, q: q || undefined, limit: PAGE, offset };
  const memories = useMemories(agent.id, filters);
  const update = useUpdateMemory(agent.id);
  const [actionError, setActionError] = useState<string | null>(null);

  const categories = tier ? CATEGORIES_BY_TIER[tier as MemoryTier] : MEMORY_TIERS.flatMap((t) => CATEGORIES_BY_TIER[t]);
  const resetPage = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setOffset(0);
  };
  const filtered = Boolean(tier || category || scope || q || status !== "active");

  async function changeStatus(m: Memory, next: "active" | "archived" | "resolved") {
    setActionError(null);
    try {
      await update.mutateAsync({ id: m.id, status: next, expectedVersion: m.version });
    } catch (err) {
      setActionError(errorMessage(err));
    }
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
              Export memory/ (zip)
            </a>
          }
        />
        <FilterBar
          className="grid gap-3 border-b border-slate-200 px-5 py-3 sm:grid-cols-2 lg:grid-cols-[minmax(15rem,2fr)_repeat(4,minmax(0,1fr))]"
          active={[tier, category, scope, status !== "active"].filter(Boolean).length}
          primary={
            <Input
              type="search"
              aria-label="Search memories"
              placeholder="Search title and content…"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setOffset(0);
              }}
            />
          }
        >
          <Select
            aria-label="Tier"
            value={tier}
            onChange={(e) => {
              resetPage(setTier)(e.target.value);
              setCategory("");
            }}
            options={[{ value: "", label: "All tiers" }, ...MEMORY_TIERS.map((t) => ({ value: t, label: TIER_LABEL[t] }))]}
          />
          <Select
            aria-label="Category"
            value={category}
            onChange={(e) => resetPage(setCategory)(e.target.value)}
            options={[{ value: "", label: "All categories" }, ...categories.map((c) => ({ value: c, label: capitalize(c) }))]}
          />
          <Select
            aria-label="Status"
            value={status}
            onChange={(e) => resetPage(setStatus)(e.target.value)}
            options={[...MEMORY_STATUSES.map((s) => ({ value: s, label: capitalize(s) })), { value: "all", label: "Any status" }]}
          />
          <Select
            aria-label="Scope"
            value={scope}
            onChange={(e) => resetPage(setScope)(e.target.value)}
            options={[
              { value: "", label: "Private and team" },
              { value: "agent", label: "Private (agent)" },
              ...(agent.kind === "internal" ? [{ value: "team", label: "Team (shared)" }] : []),
            ]}
          />
        </FilterBar>
        {actionError && <p className="border-b border-red-100 bg-red-50 px-5 py-2 text-sm text-red-700">{actionError}</p>}
        {memories.isPending ? (
          <LoadingState label="Loading memories…" rows={6} />
        ) : memories.isError ? (
          <ErrorState error={memories.error} onRetry={() => memories.refetch()} retrying={memories.isFetching} />
        ) : memories.data.memories.length === 0 ? (
          <EmptyState
            title={filtered ? "No memories match" : "No memories yet"}
            description={filtered ? "Try another filter or search." : `${agent.name} hasn't written any memories.`}
          />
        ) : (
          <>
            <Table cards aria-busy={memories.isFetching || undefined}>
              <THead>
                <tr>
                  <Th>Memory</Th>
                  <Th>Tier</Th>
                  <Th>Confidence</Th>
                  <Th>Status</Th>
                  <Th>Used</Th>
                  <Th>Written</Th>
                  {isAdmin && (
                    <Th className="text-right">
                      <span className="sr-only">Actions</span>
                    </Th>
                  )}
                </tr>
              </THead>
              <TBody>
                {memories.data.memories.map((m) => (
                  <MemoryRow
                    key={m.id}
                    memory={m}
                    open={open === m.id}
                    onToggle={() => setOpen(open === m.id ? null : m.id)}
                    isAdmin={isAdmin}
                    busy={update.isPending && update.variables?.id === m.id}
                    onStatus={(s) => changeStatus(m, s)}
                  />
                ))}
              </TBody>
            </Table>
            <div className="flex items-center justify-between border-t border-slate-200 px-5 py-3 text-sm text-slate-500">
              <span>
                {offset + 1}–{offset + memories.data.memories.length} of {memories.data.total}
              </span>
              <div className="flex gap-2">
                <Button size="sm" variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                  Previous
                </Button>
                <Button size="sm" variant="secondary" disabled={offset + PAGE >= memories.data.total} onClick={() => setOffset(offset + PAGE)}>
                  Next
                </Button>
              </div>
            </div>
          </>
        )}
      </Card>
    </div>
  );
}

function MemoryRow({
  memory: m,
  open,
  onToggle,
  isAdmin,
  busy,
  onStatus,
}: {
  memory: Memory;
  open: boolean;
  onToggle: () => void;
  isAdmin: boolean;
  busy: boolean;
  onStatus: (s: "active" | "archived" | "resolved") => void;
}) {
  return (
    <>
      <Tr data-testid="memory-row">
        <Td className="max-w-md" primary>
          <button type="button" onClick={onToggle} aria-expanded={open} className="text-left font-medium text-slate-900 hover:text-indigo-700">
            {m.title}
          </button>
          <div className="mt-1 flex flex-wrap gap-1">
            {m.scope === "team" && <Badge tone="blue">Team</Badge>}
            {m.tags.slice(0, 4).map((t) => (
              <Badge key={t}>{t}</Badge>
            ))}
            {!m.embedded && <Badge tone="amber">Queued for embedding</Badge>}
          </div>
        </Td>
        <Td label="Tier">
          <Badge tone={TIER_TONE[m.tier]}>{TIER_LABEL[m.tier]}</Badge>
          <span className="mt-1 block text-xs text-slate-500">{capitalize(m.category)}</span>
        </Td>
        <Td className="tabular-nums" label="Confidence">
          {percent(m.confidence)}
          {m.expiresAt && m.status === "active" && <span className="block text-xs text-amber-700">expires {formatRelative(m.expiresAt)}</span>}
        </Td>
        <Td label="Status">
          <Badge tone={STATUS_TONE[m.status]}>{capitalize(m.status)}</Badge>
          {m.archiveReason === "cap" && <span className="block text-xs text-slate-500">over the cap</span>}
        </Td>
        <Td className="tabular-nums" label="Used">
          {m.accessedCount}×
        </Td>
        <Td label="Written">
          <span title={formatDateTime(m.createdAt)}>{formatRelative(m.createdAt)}</span>
          {m.createdByName && <span className="block text-xs text-slate-500">by {m.createdByName}</span>}
        </Td>
        {isAdmin && (
          <Td className="text-right whitespace-nowrap">
            {m.status === "active" ? (
              <>
                {m.tier === "working" && (
                  <Button size="sm" variant="ghost" disabled={busy} onClick={() => onStatus("resolved")}>
                    Resolve
                  </Button>
                )}
                <Button size="sm" variant="danger-ghost" disabled={busy} onClick={() => onStatus("archived")}>
                  Archive
                </Button>
              </>
            ) : (
              <Button size="sm" variant="ghost" disabled={busy} onClick={() => onStatus("active")}>
                Restore
              </Button>
            )}
          </Td>
        )}
      </Tr>
      {open && (
        <tr className="bg-slate-50/60">
          <td colSpan={isAdmin ? 7 : 6} className="px-5 py-4">
            <MemoryDetails memory={m} />
          </td>
        </tr>
      )}
    </>
  );
}
