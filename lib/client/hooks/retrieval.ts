"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { retrievalKeys } from "@/lib/client/query-keys";
import type { AssembledContext, RetrievalScope, RetrievalStats, RetrieveResult } from "@/lib/client/retrieval-types";

export interface RetrieveInput {
  agentId: string;
  message: string;
  limit?: number;
  /** omit to let the smart trigger decide */
  scopes?: RetrievalScope[];
}

/** POST /retrieve as the chosen agent (a playground run: logged, audited, not counted as use). */
export function useRetrieve() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RetrieveInput) => apiFetch<RetrieveResult>("/retrieve", { body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: retrievalKeys.stats() }),
  });
}

/** GET /agents/{id}/context for a topic, fetched when asked for (`enabled`). */
export function useAssembledContext(agentId: string, topic: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: retrievalKeys.context(agentId, topic),
    queryFn: ({ signal }) =>
      apiFetch<AssembledContext>(`/agents/${encodeURIComponent(agentId)}/context`, { query: { topic }, signal }),
    enabled: enabled && Boolean(agentId),
  });
}

export function useRetrievalStats(days: number) {
  return useQuery({
    queryKey: retrievalKeys.statsFor(days),
    queryFn: ({ signal }) => apiFetch<RetrievalStats>("/retrieval/stats", { query: { days }, signal }),
  });
}
