"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Th, THead } from "@/components/ui/table";
import { apiFetch, errorMessage } from "@/lib/client/api";
import { cn } from "@/lib/client/cn";
import { useAgents, useClients } from "@/lib/client/hooks/agents";
import { auditKeys } from "@/lib/client/query-keys";
import type { AuditEntry } from "@/lib/client/types";
import { AuditRow } from "./audit-row";

const PAGE_SIZE = 50;
const ACTION_PATTERN = /^[a-z_.-]+$/;
const QUICK_FILTERS = [
  { label: "All", value: "" },
  { label: "Agents", value: "agent" },
  { label: "Keys", value: "agent_key" },
  { label: "Clients", value: "client" },
  { label: "Locked constants", value: "locked_constant" },
  { label: "Users", value: "hq_user" },
];

export function AuditPage() {
  const [action, setAction] = useState("");
  const [draft, setDraft] = useState("");
  const [draftError, setDraftError] = useState<string | null>(null);

  const entries = useInfiniteQuery({
    queryKey: auditKeys.list({ action: action || undefined, limit: PAGE_SIZE }),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<{ entries: AuditEntry[]; nextCursor: string | null }>("/audit", {
        query: { limit: PAGE_SIZE, action: action || undefined, cursor: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    // the next page starts after the oldest entry shown (keyset cursor from the API)
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

  // names for ids, when the caller may see them
  const agents = useAgents();
  const clients = useClients();
  const agentNames = new Map(agents.data?.map((a) => [a.id, a.name]));
  const clientNames = new Map(clients.data?.map((c) => [c.id, c.name]));

  function apply(value: string) {
    const v = value.trim().toLowerCase().replace(/\.$/, "");
    if (v && !ACTION_PATTERN.test(v)) {
      setDraftError("Use lowercase letters, dots, dashes and underscores, e.g. agent_key or agent.create");
      return;
    }
    setDraftError(null);
    setDraft(v);
    setAction(v);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    apply(draft);
  }

  const rows = entries.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to agents, keys, clients, users, constants and memory, newest first. Entries can't be edited or deleted."
      />
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Quick filters">
          {QUICK_FILTERS.map((f) => (
            <button
              key={f.label}
              type="button"
              onClick={() => apply(f.value)}
              aria-pressed={action === f.value}
              className={cn(
                "rounded-full px-3 py-1 text-xs font-medium ring-1 ring-inset transition-colors",
                action === f.value ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-600 ring-slate-300 hover:bg-slate-50",
              )}
            >
              {f.label}
            </button>
          ))}
        </div>
        <form onSubmit={onSubmit} className="flex items-start gap-2" role="search">
          <div>
            <label htmlFor="audit-action" className="sr-only">
              Filter by action prefix
            </label>
            <Input
              id="audit-action"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder="e.g. agent_key"
              className="w-64 font-mono"
              invalid={Boolean(draftError)}
              aria-describedby={draftError ? "audit-action-error" : undefined}
            />
            {draftError && (
              <p id="audit-action-error" className="mt-1 max-w-64 text-xs text-red-600">
                {draftError}
              </p>
            )}
          </div>
          <Button type="submit" variant="secondary">
            Filter
          </Button>
        </form>
      </div>

      <Card>
        {entries.isPending ? (
          <LoadingState label="Loading the audit log…" rows={8} />
        ) : !entries.data ? (
          <ErrorState error={entries.error} onRetry={() => entries.refetch()} retrying={entries.isFetching} />
        ) : rows.length === 0 ? (
          <EmptyState
            title={action ? `No entries for “${action}”` : "Nothing recorded yet"}
            description={action ? "Try a shorter prefix, or clear the filter." : "Changes made in the console and through the API appear here."}
            action={
              action && (
                <Button variant="secondary" onClick={() => apply("")}>
                  Clear filter
                </Button>
              )
            }
          />
        ) : (
          <>
            <Table>
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
                  <AuditRow key={entry.id} entry={entry} agentNames={agentNames} clientNames={clientNames} />
                ))}
              </TBody>
            </Table>
            <div className="flex items-center justify-between border-t border-slate-200 px-5 py-3 text-sm text-slate-500">
              <span>
                {rows.length} entr{rows.length === 1 ? "y" : "ies"}
                {action && (
                  <>
                    {" "}
                    matching <code className="font-mono text-slate-700">{action}</code>
                  </>
                )}
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
