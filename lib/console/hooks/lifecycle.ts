"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { usePagedQuery } from "@/lib/console/hooks/paged-list";
import type { Escalation, ResolveEscalationInput } from "@/lib/console/lifecycle-types";
import { escalationKeys, knowledgeKeys, outcomeKeys, reportKeys } from "@/lib/console/query-keys";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";

/** Escalations a page at a time in the list's order (open ones most severe first), by the API's cursor; every answer carries the counts. */
export function useEscalations(filters: { status?: "open" | "resolved" }, { page, pageSize }: { page: number; pageSize: number }) {
  return usePagedQuery({
    queryKey: escalationKeys.list(filters),
    paging: "cursor",
    page,
    pageSize,
    fetchPage: ({ cursor, limit, signal }) => apiCall(c.listEscalations, { query: { status: filters.status, limit, cursor } }, { signal }),
    rows: (r) => r.escalations as Escalation[],
    total: (r) => (filters.status ? r.counts[filters.status] : r.counts.open + r.counts.resolved),
    nextCursor: (r) => r.nextCursor,
  });
}

/** The escalation counts (open, resolved, answered by a known fix): one row fetched, the answer counts them all. */
export function useEscalationCounts() {
  return useQuery({
    queryKey: escalationKeys.count(),
    queryFn: ({ signal }) => apiCall(c.listEscalations, { query: { limit: 1 } }, { signal }).then((r) => r.counts),
  });
}

/** How many escalations wait for a person: the sidebar's count. */
export function useOpenEscalationCount(): number {
  return useEscalationCounts().data?.open ?? 0;
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
