"use client";

import { Card, CardHeader } from "@/components/ui/card";
import { DataItems } from "@/components/ui/data-list";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { regroup } from "@/lib/console/hooks/paged-list";
import { useInteractions } from "@/lib/console/hooks/memory";
import { useTypedFilter } from "@/lib/console/hooks/typed-filter";
import type { Agent } from "@/lib/console/types";
import { useListUrl } from "@/lib/console/url-state";
import { groupTranscripts, TranscriptView } from "./transcripts";

const PAGE_SIZE = 50;

/**
 * The conversations the agent recorded (recall memory), newest conversation first, each in
 * conversation order, with full-text search over the messages; the search and the page are in the address.
 */
export function InteractionsTab({ agent }: { agent: Agent }) {
  const { filters, page, setFilters, setPage } = useListUrl({ q: "" });
  const [search, setSearch] = useTypedFilter(filters.q, (q) => setFilters({ q }));
  const q = filters.q;
  const interactions = useInteractions({ agentId: agent.id, q: q || undefined }, { page, pageSize: PAGE_SIZE });

  return (
    <Card>
      <CardHeader
        title="Interactions"
        description="Conversations the agent recorded, newest first, each message in the order it was said: searchable recall memory."
        actions={
          <Input type="search" aria-label="Search interactions" placeholder="Search…" value={search} onChange={(e) => setSearch(e.target.value)} className="w-56" />
        }
      />
      <DataItems
        list={regroup(interactions, groupTranscripts)}
        onPage={setPage}
        noun={["message", "messages"]}
        loadingLabel="Loading interactions…"
        aria-label="Conversations"
        rowKey={(t) => t.key}
        renderItem={(t) => <TranscriptView transcript={t} />}
        empty={<EmptyState title={q ? "Nothing matches" : "No interactions recorded"} description={q ? "Try other words." : `${agent.name} hasn't recorded any conversations.`} />}
      />
    </Card>
  );
}
