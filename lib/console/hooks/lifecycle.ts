"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { usePagedQuery } from "@/lib/console/hooks/paged-list";
import type { Escalation, EscalationSeverity, ResolveEscalationInput } from "@/lib/console/lifecycle-types";
import { auditKeys, escalationKeys, knowledgeKeys, outcomeKeys, reportKeys } from "@/lib/console/query-keys";
import { auditContracts } from "@/lib/audit/contracts";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";

export interface EscalationFilters {
  status?: "open" | "resolved";
  severity?: EscalationSeverity;
  /** a client's id, or "hq" for escalations of no client */
  clientId?: string;
  /** the escalations resolved with this knowledge entry */
  knowledgeEntryId?: string;
}

/** Escalations a page at a time in the list's order (open ones most severe first), by the API's cursor; every answer carries the counts the filters keep. */
export function useEscalations(filters: EscalationFilters, { page, pageSize }: { page: number; pageSize: number }) {
  return usePagedQuery({
    queryKey: escalationKeys.list(filters),
    paging: "cursor",
    page,
    pageSize,
    fetchPage: ({ cursor, limit, signal }) => apiCall(c.listEscalations, { query: { ...filters, limit, cursor } }, { signal }),
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

/** The newest consolidation run's audit entry (a run is audited when it changed something), or null. */
export function useLastConsolidation() {
  const filters = { action: "lifecycle.consolidate", limit: 1 };
  return useQuery({
    queryKey: auditKeys.list(filters),
    queryFn: ({ signal }) => apiCall(auditContracts.list, { query: filters }, { signal }).then((r) => r.entries[0] ?? null),
  });
}

/**
 * Runs the consolidation now (HQ admins), or with `dryRun` previews it: the report of what it would
 * change, nothing changed. A real run archives, promotes and writes reports: every view may be stale.
 */
export function useConsolidate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { dryRun: boolean }) => apiCall(c.consolidate, { body }),
    onSuccess: (_report, { dryRun }) => {
      if (!dryRun) void queryClient.invalidateQueries();
    },
  });
}
