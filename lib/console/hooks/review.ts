"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { apiCall } from "@/lib/console/api";
import { useAuditedWrite, type WriteCallbacks } from "@/lib/console/hooks/write";
import { usePagedQuery } from "@/lib/console/hooks/paged-list";
import type { Contact, Fact, Suggestion, SuggestionStatus } from "@/lib/console/review-types";
import { auditKeys, contactKeys, suggestionKeys } from "@/lib/console/query-keys";
import { reviewContracts as c } from "@/lib/review/contracts";
import { reviewContracts } from "@/lib/review/contracts";

export interface SuggestionFilters {
  status?: SuggestionStatus;
  contactId?: string;
  clientId?: string;
  q?: string;
  verdict?: "approve" | "review" | "refuse";
}

/** Suggestions a page at a time in the queue's order (pending first, oldest first), by the API's cursor. */
export function useSuggestionPages(filters: SuggestionFilters, { page, pageSize }: { page: number; pageSize: number }) {
  return usePagedQuery({
    queryKey: suggestionKeys.list(filters),
    paging: "cursor",
    page,
    pageSize,
    fetchPage: ({ cursor, limit, signal }) => apiCall(c.listSuggestions, { query: { ...filters, limit, cursor } }, { signal }),
    rows: (r) => r.suggestions as Suggestion[],
    total: (r) => r.total,
    nextCursor: (r) => r.nextCursor,
  });
}

/** How many suggestions wait for review: the navigation's badge (one row fetched; the answer counts them all). */
export function usePendingSuggestionCount(): number {
  return (
    useQuery({
      queryKey: suggestionKeys.count({ status: "pending" }),
      queryFn: ({ signal }) => apiCall(c.listSuggestions, { query: { status: "pending", limit: 1 } }, { signal }).then((r) => r.total ?? 0),
    }).data ?? 0
  );
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

/** the bulk endpoint's most ids per call */
const BULK_MAX = 200;

export interface ReviewDecision {
  ids: string[];
  decision: "approve" | "reject";
  reason?: string;
  /** edit-and-approve: the value written instead of the proposal */
  value?: string;
}

/**
 * Sends a review decision as it stands — one suggestion through the review endpoint, more through the
 * bulk endpoint 200 at a time — and says what happened; `refresh` reloads what decisions change (the
 * queue, contacts, the audit log). `keepalive` lets the request outlive a page being closed.
 */
export function useSendReviewDecision() {
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => Promise.all([suggestionKeys.all, contactKeys.all, auditKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
    [queryClient],
  );
  const send = useCallback(async (d: ReviewDecision, { keepalive = false }: { keepalive?: boolean } = {}) => {
    if (d.ids.length === 1) {
      const { suggestion } = await apiCall(
        c.reviewSuggestion,
        { params: { id: d.ids[0]! }, body: { decision: d.decision, ...(d.reason ? { reason: d.reason } : {}), ...(d.value ? { value: d.value } : {}) } },
        { keepalive },
      );
      return { done: 1, failures: [] as string[], superseded: suggestion.status === "superseded" ? suggestion : null };
    }
    const failures: string[] = [];
    let done = 0;
    for (let i = 0; i < d.ids.length; i += BULK_MAX) {
      const r = await apiCall(c.bulkReview, { body: { ids: d.ids.slice(i, i + BULK_MAX), decision: d.decision, ...(d.reason ? { reason: d.reason } : {}) } }, { keepalive });
      done += r.succeeded;
      failures.push(...r.results.filter((x) => !x.ok).map((x) => x.error?.message ?? "refused"));
    }
    return { done, failures, superseded: null };
  }, []);
  return useMemo(() => ({ send, refresh }), [send, refresh]);
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

export interface ContactFilters {
  clientId?: string;
  q?: string;
  includeOptedOut?: boolean;
  /** only opted-out contacts whose erasure HQ has still to finish */
  hqErasurePending?: boolean;
}

/** Contacts a page at a time, the most recently updated first, by the API's cursor. */
export function useContacts(filters: ContactFilters, { page, pageSize, enabled }: { page: number; pageSize: number; enabled?: boolean }) {
  return usePagedQuery({
    queryKey: contactKeys.list(filters),
    enabled,
    paging: "cursor",
    page,
    pageSize,
    fetchPage: ({ cursor, limit, signal }) =>
      apiCall(
        c.listContacts,
        {
          query: {
            clientId: filters.clientId,
            q: filters.q,
            includeOptedOut: filters.includeOptedOut ? "true" : undefined,
            hqErasure: filters.hqErasurePending ? "pending" : undefined,
            limit,
            cursor,
          },
        },
        { signal },
      ),
    rows: (r) => r.contacts as Contact[],
    total: (r) => r.total,
    nextCursor: (r) => r.nextCursor,
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

export type ContactChanges = {
  name?: string | null;
  phone?: string | null;
  email?: string | null;
  summary?: string;
  stage?: Exclude<Contact["stage"], "opted_out">;
  sentiment?: Contact["sentiment"];
};

/** Changes the fields of a contact's profile that are sent; the rest stay as they are. */
export function useUpdateContact(id: string, callbacks?: WriteCallbacks<{ contact: Contact }, ContactChanges>) {
  return useAuditedWrite(
    (body: ContactChanges) => apiCall(reviewContracts.updateContact, { params: { id }, body }),
    () => [contactKeys.all],
    callbacks,
  );
}

/** Writes a fact directly, under the rules an approval meets; the fact it replaces becomes history. */
export function usePutFact(contactId: string, callbacks?: WriteCallbacks<{ fact: Fact }, { key: string; value: string; confidence: number }>) {
  return useAuditedWrite(
    ({ key, value, confidence }: { key: string; value: string; confidence: number }) =>
      apiCall(reviewContracts.putFact, { params: { id: contactId, key }, body: { value, confidence } }),
    () => [contactKeys.all, suggestionKeys.all],
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

/** HQ keeps its records as they are: drops what a field manager's opt-out kept for HQ to erase. */
export function useKeepHqMentions(id: string) {
  return useAuditedWrite(
    () => apiCall(reviewContracts.keepHqMentions, { params: { id } }),
    () => [contactKeys.all],
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
