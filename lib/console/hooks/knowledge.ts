"use client";

import { useIsMutating, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { auditKeys, knowledgeKeys } from "@/lib/console/query-keys";
import type { KnowledgeCategory, KnowledgeDraft, KnowledgeEntry, KnowledgeStatus } from "@/lib/console/knowledge-types";
import { usePagedQuery } from "@/lib/console/hooks/paged-list";
import { knowledgeContracts as c } from "@/lib/knowledge/contracts";

export interface KnowledgeFilters {
  q?: string;
  category?: KnowledgeCategory;
  tag?: string;
  status?: KnowledgeStatus | "all";
}

/** The plain list a page at a time (most recently edited first); a search is one page of the best matches. */
export const KNOWLEDGE_PAGE = 50;
const SEARCH_LIMIT = 25;

export function useKnowledgeList(filters: KnowledgeFilters, page: number) {
  const searching = Boolean(filters.q);
  return usePagedQuery({
    queryKey: knowledgeKeys.list(filters),
    paging: "offset",
    // a search returns the best matches (the vector half ranks every entry, so more is noise)
    page: searching ? 1 : page,
    pageSize: searching ? SEARCH_LIMIT : KNOWLEDGE_PAGE,
    fetchPage: ({ limit, offset, signal }) => apiCall(c.list, { query: { ...filters, limit, offset } }, { signal }),
    rows: (r) => r.entries as KnowledgeEntry[],
    total: (r) => (r.mode === "list" ? r.total : r.entries.length),
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

const IMPORT_KEY = ["knowledge", "import"] as const;

export function useImportKnowledge() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationKey: IMPORT_KEY,
    mutationFn: (body: { files: { name: string; content: string }[]; dryRun?: boolean }) =>
      apiCall(c.import, { body }),
    onSettled: (report) => (report?.dryRun ? undefined : invalidate()),
  });
}

/** Whether an import that stores entries (not a check) is running in this tab. */
export function useImportRunning() {
  return (
    useIsMutating({
      mutationKey: IMPORT_KEY,
      predicate: (m) => !(m.state.variables as { dryRun?: boolean } | undefined)?.dryRun,
    }) > 0
  );
}
