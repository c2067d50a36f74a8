"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { auditKeys, retrievalKeys } from "@/lib/console/query-keys";
import type { RetrievalScope } from "@/lib/console/retrieval-types";
import { retrievalContracts } from "@/lib/retrieval/contracts";

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
    mutationFn: (input: RetrieveInput) => apiCall(retrievalContracts.retrieve, { body: input }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: retrievalKeys.stats() }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}

/** GET /agents/{id}/context for a topic, fetched when asked for (`enabled`); HQ's run is audited. */
export function useAssembledContext(agentId: string, topic: string, { enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: retrievalKeys.context(agentId, topic),
    queryFn: async ({ signal }) => {
      const context = await apiCall(retrievalContracts.context, { params: { agentId }, query: { topic } }, { signal });
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
      return context;
    },
    enabled: enabled && Boolean(agentId),
  });
}

export function useRetrievalStats(days: number) {
  return useQuery({
    queryKey: retrievalKeys.statsFor(days),
    queryFn: ({ signal }) => apiCall(retrievalContracts.stats, { query: { days } }, { signal }),
  });
}
