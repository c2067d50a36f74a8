"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { auditKeys, knowledgeKeys } from "@/lib/console/query-keys";
import type { KnowledgeCategory, KnowledgeDraft, KnowledgeStatus } from "@/lib/console/knowledge-types";
import { knowledgeContracts as c } from "@/lib/knowledge/contracts";

export interface KnowledgeFilters {
  q?: string;
  category?: KnowledgeCategory;
  tag?: string;
  status?: KnowledgeStatus | "all";
}

export function useKnowledgeList(filters: KnowledgeFilters) {
  return useQuery({
    queryKey: knowledgeKeys.list(filters),
    // a search returns the best matches (the vector half ranks every entry, so more is noise); a list shows all
    queryFn: ({ signal }) => apiCall(c.list, { query: { ...filters, limit: filters.q ? 25 : 200 } }, { signal }),
    // keep the table on screen while the next search runs
    placeholderData: keepPreviousData,
  });
}

export function useKnowledgeEntry(id: string) {
  return useQuery({
    queryKey: knowledgeKeys.detail(id),
    queryFn: ({ signal }) => apiCall(c.get, { params: { id } }, { signal }).then((r) => r.entry),
  });
}

export function useKnowledgeVersions(id: string) {
  return useQuery({
    queryKey: knowledgeKeys.versions(id),
    queryFn: ({ signal }) =>
apiCall(c.versions, { params: { id } }, { signal }).then((r) => r.versions),
  });
}

export function useKnowledgeTags() {
  return useQuery({
    queryKey: knowledgeKeys.tags(),
    queryFn: ({ signal }) => apiCall(c.tags, {}, { signal }).then((r) => r.tags),
    staleTime: 60_000,
  });
}

/** Any write changes lists, the entry, its history, the tags and the audit log. */
function useInvalidateKnowledge() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: knowledgeKeys.all }),
      queryClient.invalidateQueries({ queryKey: auditKeys.all }),
    ]);
}

export function useCreateKnowledge() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: (draft: KnowledgeDraft) => apiCall(c.create, { body: draft }).then((r) => r.entry),
    onSettled: invalidate,
  });
}

export function useUpdateKnowledge(id: string) {
  const invalidate = useInvalidateKnowledge();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<KnowledgeDraft> & { status?: KnowledgeStatus; expectedVersion: number }) =>
      apiCall(c.update, { params: { id }, body }).then((r) => r.entry),
    // the editor opened next starts from the saved version, not the one the refetch has yet to replace
    onSuccess: (entry) => queryClient.setQueryData(knowledgeKeys.detail(id), entry),
    onSettled: invalidate,
  });
}

export function useArchiveKnowledge(id: string) {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: () => apiCall(c.archive, { params: { id } }).then((r) => r.entry),
    onSettled: invalidate,
  });
}

export function useRestoreKnowledge(id: string) {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: (body: { version: number; expectedVersion: number }) =>
      apiCall(c.restore, { params: { id }, body }),
    onSettled: invalidate,
  });
}

export function useImportKnowledge() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: (body: { files: { name: string; content: string }[]; dryRun?: boolean }) =>
      apiCall(c.import, { body }),
    onSettled: (report) => (report?.dryRun ? undefined : invalidate()),
  });
}
