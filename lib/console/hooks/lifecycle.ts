"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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

/**
 * The entry resolving `id` without a knowledge body would publish, for `resolution` as typed (debounce
 * it): composed on the server by the code that publishes it, personal data left out. `draftFor(text)`
 * answers the draft for exactly `text` (from the cache, or fetched now), for a form submitted before
 * the draft caught up with the typing.
 */
export function useEscalationDraft(id: string, resolution: string) {
  const queryClient = useQueryClient();
  const options = (text: string) => ({
    queryKey: escalationKeys.draft(id, text),
    queryFn: ({ signal }: { signal?: AbortSignal }) => apiCall(c.draftEscalationEntry, { params: { id }, body: { resolution: text } }, { signal }),
  });
  const query = useQuery({ ...options(resolution), placeholderData: keepPreviousData });
  return { ...query, draftFor: (text: string) => queryClient.fetchQuery(options(text)) };
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
