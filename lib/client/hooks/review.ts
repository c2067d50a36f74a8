"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { auditKeys, contactKeys, suggestionKeys } from "@/lib/client/query-keys";
import type { BulkReviewResult, Contact, Fact, ManagerPassReport, Suggestion } from "@/lib/client/review-types";

export interface SuggestionFilters {
  status?: string;
  contactId?: string;
  clientId?: string;
}

export function useSuggestions(filters: SuggestionFilters) {
  return useQuery({
    queryKey: suggestionKeys.list(filters),
    queryFn: ({ signal }) =>
      apiFetch<{ suggestions: Suggestion[] }>("/suggestions", { query: { ...filters, limit: 500 }, signal }).then((r) => r.suggestions),
  });
}

/** How many suggestions wait for review (the navigation's badge; at most the 500 one page holds). */
export function usePendingSuggestionCount(): number {
  return useSuggestions({ status: "pending" }).data?.length ?? 0;
}

/** After any decision: the queue, the contacts (facts, counts) and the audit log have changed. */
function useInvalidateReview() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: suggestionKeys.all }),
      queryClient.invalidateQueries({ queryKey: contactKeys.all }),
      queryClient.invalidateQueries({ queryKey: auditKeys.all }),
    ]);
}

export function useReviewSuggestion() {
  const invalidate = useInvalidateReview();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; decision: "approve" | "reject"; reason?: string; value?: string }) =>
      apiFetch<{ suggestion: Suggestion; fact?: Fact }>(`/suggestions/${id}/review`, { body }),
    onSettled: invalidate,
  });
}

export function useBulkReview() {
  const invalidate = useInvalidateReview();
  return useMutation({
    mutationFn: (body: { ids: string[]; decision: "approve" | "reject"; reason?: string }) =>
      apiFetch<BulkReviewResult>("/suggestions/bulk-review", { body }),
    onSettled: invalidate,
  });
}

export function useManagerPass() {
  const invalidate = useInvalidateReview();
  return useMutation({
    mutationFn: () => apiFetch<ManagerPassReport>("/review/run", { body: {} }),
    onSettled: invalidate,
  });
}

export function useContacts(filters: { clientId?: string; q?: string; includeOptedOut?: boolean }) {
  return useQuery({
    queryKey: contactKeys.list(filters),
    queryFn: ({ signal }) =>
      apiFetch<{ contacts: Contact[] }>("/contacts", {
        query: { clientId: filters.clientId, q: filters.q, includeOptedOut: filters.includeOptedOut ? "true" : undefined, limit: 500 },
        signal,
      }).then((r) => r.contacts),
  });
}

export function useContact(id: string) {
  return useQuery({
    queryKey: contactKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<{ contact: Contact; facts: Fact[] }>(`/contacts/${encodeURIComponent(id)}`, { signal }),
  });
}

export function useFactHistory(id: string) {
  return useQuery({
    queryKey: contactKeys.history(id),
    queryFn: ({ signal }) => apiFetch<{ facts: Fact[] }>(`/contacts/${encodeURIComponent(id)}/history`, { signal }).then((r) => r.facts),
  });
}

export function useFactKeys(clientId: string | undefined) {
  return useQuery({
    queryKey: contactKeys.factKeys(clientId ?? ""),
    queryFn: ({ signal }) => apiFetch<{ keys: string[] }>(`/clients/${clientId}/fact-keys`, { signal }).then((r) => r.keys),
    enabled: Boolean(clientId),
  });
}
