"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { useInteractions } from "@/lib/console/hooks/memory";
import type { Agent } from "@/lib/console/types";
import { groupTranscripts, TranscriptView } from "./transcripts";

/**
 * The conversations the agent recorded (recall memory), newest conversation first, each in
 * conversation order, with full-text search over the messages.
 */
export function InteractionsTab({ agent }: { agent: Agent }) {
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQ(search.trim()), 300);
    return () => clearTimeout(t);
  }, [search]);
  const interactions = useInteractions({ agentId: agent.id, q: q || undefined });
  const rows = interactions.data?.pages.flatMap((p) => p.interactions) ?? [];
  const transcripts = groupTranscripts(rows);

  return (
    <Card>
      <CardHeader
        title="Interactions"
        description="Conversations the agent recorded, newest first, each message in the order it was said: searchable recall memory."
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
          <div className="divide-y divide-slate-100">
            {transcripts.map((t) => (
              <TranscriptView key={t.key} transcript={t} />
            ))}
          </div>
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
