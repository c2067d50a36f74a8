"use client";

import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { formatDateTime } from "@/lib/client/format";
import { useInteractions } from "@/lib/client/hooks/memory";
import type { Agent } from "@/lib/client/types";

/** The conversations the agent recorded (recall memory), newest first, with full-text search. */
export function InteractionsTab({ agent }: { agent: Agent }) {
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQ(search.trim()), 300);
    return () => clearTimeout(t);
  }, [search]);
  const interactions = useInteractions({ agentId: agent.id, q: q || undefined });
  const rows = interactions.data?.pages.flat() ?? [];

  return (
    <Card>
      <CardHeader
        title="Interactions"
        description="Messages the agent exchanged with contacts, kept as searchable recall memory."
        actions={
          <Input type="search" aria-label="Search interactions" placeholder="Search…" value={search} onChange={(e) => setSearch(e.target.value)} className="w-56" />
        }
      />
      {interactions.isPending ? (
        <LoadingState label="Loading interactions…" rows={5} />
      ) : interactions.isError ? (
        <ErrorState error={interactions.error} onRetry={() => interactions.refetch()} retrying={interactions.isFetching} />
      ) : rows.length === 0 ? (
        <EmptyState title={q ? "Nothing matches" : "No interactions recorded"} description={q ? "Try other words." : `${agent.name} hasn't recorded any conversations.`} />
      ) : (
        <>
          <ol className="divide-y divide-slate-100">
            {rows.map((i) => (
              <li key={i.id} className="px-5 py-3" data-testid="interaction-row">
                <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
                  <Badge tone={i.direction === "inbound" ? "blue" : "violet"}>{i.direction === "inbound" ? "In" : "Out"}</Badge>
                  <Badge>{i.channel}</Badge>
                  {i.speaker && <span className="font-medium text-slate-700">{i.speaker}</span>}
                  <span>{formatDateTime(i.occurredAt)}</span>
                  {!i.embedded && <Badge tone="amber">Queued for embedding</Badge>}
                </div>
                <p className="mt-1.5 text-sm whitespace-pre-wrap text-slate-800">{i.content}</p>
              </li>
            ))}
          </ol>
          {interactions.hasNextPage && (
            <div className="border-t border-slate-200 px-5 py-3 text-center">
              <Button size="sm" variant="secondary" onClick={() => interactions.fetchNextPage()} loading={interactions.isFetchingNextPage}>
                Load older
              </Button>
            </div>
          )}
        </>
      )}
    </Card>
  );
}
