"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { usePagedQuery } from "@/lib/console/hooks/paged-list";
import type { EscalationSeverity, ResolveEscalationInput } from "@/lib/console/lifecycle-types";
import { escalationKeys, knowledgeKeys, outcomeKeys, reportKeys } from "@/lib/console/query-keys";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";

export function useEscalations(filters: { status?: "open" | "resolved" } = {}) {
  return useQuery({
    queryKey: escalationKeys.list(filters),
    queryFn: ({ signal }) => apiCall(c.listEscalations, { query: { status: filters.status } }, { signal }),
  });
}

export interface EscalationFilters {
  status?: "open" | "resolved";
  severity?: EscalationSeverity;
  /** a client's id, or "hq" for escalations of no client */
  clientId?: string;
  knowledgeEntryId?: string;
}

/** Escalations a page at a time in the list's order (keyset paging), with the counts the filters keep. */
export const ESCALATIONS_PAGE = 25;

export function useEscalationPages(filters: EscalationFilters, page: number) {
  return usePagedQuery({
    queryKey: escalationKeys.list(filters),
    paging: "cursor",
    page,
    pageSize: ESCALATIONS_PAGE,
    fetchPage: ({ limit, cursor, signal }) => apiCall(c.listEscalations, { query: { ...filters, limit, cursor } }, { signal }),
    rows: (r) => r.escalations,
    nextCursor: (r) => r.nextCursor,
  });
}

/** One escalation (a link to it: from the palette, or from the entry that fixed it). */
export function useEscalation(id: string | null) {
  return useQuery({
    queryKey: escalationKeys.detail(id ?? ""),
    queryFn: ({ signal }) => apiCall(c.getEscalation, { params: { id: id! } }, { signal }).then((r) => r.escalation),
    enabled: Boolean(id),
  });
}

/** The open escalations that look like the same issue as `id`. */
export function useSimilarEscalations(id: string) {
  return useQuery({
    queryKey: escalationKeys.similar(id),
    queryFn: ({ signal }) => apiCall(c.similarEscalations, { params: { id }, query: { limit: 50 } }, { signal }).then((r) => r.similar),
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
