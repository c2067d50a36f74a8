"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import type { ResolveEscalationInput } from "@/lib/console/lifecycle-types";
import { escalationKeys, knowledgeKeys, outcomeKeys, reportKeys } from "@/lib/console/query-keys";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";

export function useEscalations(filters: { status?: "open" | "resolved" } = {}) {
  return useQuery({
    queryKey: escalationKeys.list(filters),
    queryFn: ({ signal }) => apiCall(c.listEscalations, { query: { status: filters.status } }, { signal }),
  });
}

/** How many escalations wait for a person: the sidebar's count. */
export function useOpenEscalationCount(): number {
  return useEscalations({ status: "open" }).data?.counts.open ?? 0;
}

/** Resolves an escalation; with `knowledge` the fix is written to the knowledge base, linked to it. */
export function useResolveEscalation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: ResolveEscalationInput) => apiCall(c.resolveEscalation, { params: { id }, body }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: escalationKeys.all });
      void queryClient.invalidateQueries({ queryKey: knowledgeKeys.all });
    },
  });
}

export function useAgentReports(agentId: string) {
  return useQuery({
    queryKey: reportKeys.list(agentId),
    queryFn: ({ signal }) => apiCall(c.listReports, { params: { agentId } }, { signal }),
  });
}

/** One day's report: the stored one, or (HQ) computed on demand. */
export function useAgentReport(agentId: string, date: string | null) {
  return useQuery({
    queryKey: reportKeys.detail(agentId, date ?? ""),
    queryFn: ({ signal }) => apiCall(c.getReport, { params: { agentId, date: date ?? "" } }, { signal }),
    enabled: Boolean(date),
  });
}

export function useOutcomes() {
  return useQuery({
    queryKey: outcomeKeys.overview(),
    queryFn: ({ signal }) => apiCall(c.outcomes, {}, { signal }),
  });
}
