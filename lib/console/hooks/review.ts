"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { useAuditedWrite, type WriteCallbacks } from "@/lib/console/hooks/write";
import type { Contact, SuggestionStatus } from "@/lib/console/review-types";
import { auditKeys, contactKeys, suggestionKeys } from "@/lib/console/query-keys";
import { reviewContracts as c } from "@/lib/review/contracts";
import { reviewContracts } from "@/lib/review/contracts";

export interface SuggestionFilters {
  status?: SuggestionStatus;
  contactId?: string;
  clientId?: string;
}

export function useSuggestions(filters: SuggestionFilters) {
  return useQuery({
    queryKey: suggestionKeys.list(filters),
    queryFn: ({ signal }) =>
      apiCall(c.listSuggestions, { query: { ...filters, limit: 500 } }, { signal }).then((r) => r.suggestions),
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
      apiCall(c.reviewSuggestion, { params: { id }, body }),
    onSettled: invalidate,
  });
}

export function useBulkReview() {
  const invalidate = useInvalidateReview();
  return useMutation({
    mutationFn: (body: { ids: string[]; decision: "approve" | "reject"; reason?: string }) =>
      apiCall(c.bulkReview, { body }),
    onSettled: invalidate,
  });
}

export function useManagerPass() {
  const invalidate = useInvalidateReview();
  return useMutation({
    mutationFn: () => apiCall(c.runManagerPass, { body: {} }),
    onSettled: invalidate,
  });
}

export function useContacts(filters: { clientId?: string; q?: string; includeOptedOut?: boolean }) {
  return useQuery({
    queryKey: contactKeys.list(filters),
    queryFn: ({ signal }) =>
      apiCall(
        c.listContacts,
        { query: { clientId: filters.clientId, q: filters.q, includeOptedOut: filters.includeOptedOut ? "true" : undefined, limit: 500 } },
        { signal },
      ).then((r) => r.contacts),
  });
}

export function useContact(id: string) {
  return useQuery({
    queryKey: contactKeys.detail(id),
    queryFn: ({ signal }) => apiCall(c.getContact, { params: { id } }, { signal }),
  });
}

export function useFactHistory(id: string) {
  return useQuery({
    queryKey: contactKeys.history(id),
    queryFn: ({ signal }) => apiCall(c.factHistory, { params: { id } }, { signal }).then((r) => r.facts),
  });
}

export function useFactKeys(clientId: string | undefined) {
  return useQuery({
    queryKey: contactKeys.factKeys(clientId ?? ""),
    queryFn: ({ signal }) => apiCall(c.getFactKeys, { params: { id: clientId ?? "" } }, { signal }).then((r) => r.keys),
    enabled: Boolean(clientId),
  });
}

export type NewContactBody = { name?: string; phone?: string; email?: string; clientId?: string };

export function useCreateContact(callbacks?: WriteCallbacks<{ contact: Contact }, NewContactBody>) {
  return useAuditedWrite(
    (body: NewContactBody) => apiCall(reviewContracts.createContact, { body }),
    () => [contactKeys.all],
    callbacks,
  );
}

/** Erases what HQ holds about the contact: its facts, suggestions and messages change too. */
export function useOptOutContact(id: string) {
  return useAuditedWrite(
    () => apiCall(reviewContracts.optOut, { params: { id } }),
    () => [contactKeys.all, suggestionKeys.all],
  );
}

/** Replaces the client's fact keys (suggestions are checked against them). */
export function useSaveFactKeys(clientId: string, callbacks?: WriteCallbacks<{ keys: string[] }, string[]>) {
  return useAuditedWrite(
    (list: string[]) => apiCall(reviewContracts.setFactKeys, { params: { id: clientId }, body: { keys: list } }),
    () => [contactKeys.factKeys(clientId), suggestionKeys.all],
    callbacks,
  );
}
