"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import type {
  AgentDocument,
  BackfillReport,
  BackfillStatus,
  DailyNoteSummary,
  DocumentType,
  Interaction,
  Memory,
  MemoryFilters,
} from "@/lib/client/memory-types";
import { documentKeys, embeddingKeys, interactionKeys, memoryKeys } from "@/lib/client/query-keys";

const agentPath = (agentId: string) => `/agents/${encodeURIComponent(agentId)}`;

export function useAgentDocument(agentId: string, type: DocumentType, date?: string) {
  return useQuery({
    queryKey: documentKeys.detail(agentId, type, date),
    queryFn: ({ signal }) => apiFetch<AgentDocument>(`${agentPath(agentId)}/documents/${type}`, { query: { date }, signal }),
  });
}

/** Saves with the version the editor loaded; a 409 (`version_conflict`) carries the current document. */
export function useSaveDocument(agentId: string, type: DocumentType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { content: string; expectedVersion: number; date?: string }) =>
      apiFetch<{ version: number; updatedAt: string }>(`${agentPath(agentId)}/documents/${type}`, { method: "PUT", body }),
    onSuccess: (saved, body) => {
      // show what was saved at once; the refetch below confirms it
      queryClient.setQueryData<AgentDocument>(documentKeys.detail(agentId, type, body.date), (old) =>
        old ? { ...old, content: body.content, version: saved.version, updatedAt: saved.updatedAt } : old,
      );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: documentKeys.agent(agentId) }),
        queryClient.invalidateQueries({ queryKey: embeddingKeys.all }),
      ]);
    },
  });
}

export function useDailyNotes(agentId: string) {
  return useQuery({
    queryKey: documentKeys.dailyList(agentId),
    queryFn: ({ signal }) => apiFetch<{ today: string; notes: DailyNoteSummary[] }>(`${agentPath(agentId)}/daily`, { signal }),
  });
}

export function useMemories(agentId: string, filters: MemoryFilters) {
  return useQuery({
    queryKey: memoryKeys.list(agentId, { ...filters }),
    queryFn: ({ signal }) =>
      apiFetch<{ memories: Memory[]; total: number }>(`${agentPath(agentId)}/memories`, { query: { ...filters }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useUpdateMemory(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; status?: string; expectedVersion?: number }) =>
      apiFetch<{ memory: Memory }>(`/memories/${id}`, { method: "PATCH", body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: memoryKeys.agent(agentId) }),
  });
}

export function useRecordOutcome(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; result: string; success: boolean; notes?: string }) =>
      apiFetch<{ decision: Memory; outcome: Memory }>(`/memories/${id}/outcome`, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: memoryKeys.agent(agentId) }),
  });
}

const INTERACTIONS_PAGE = 50;

/** An agent's (or a contact's) interactions, newest first, a page at a time (keyset on occurredAt). */
export function useInteractions(filters: { agentId?: string; contactId?: string; q?: string }) {
  return useInfiniteQuery({
    queryKey: interactionKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<{ interactions: Interaction[] }>("/interactions", {
        query: { ...filters, before: pageParam, limit: INTERACTIONS_PAGE },
        signal,
      }).then((r) => r.interactions),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.length === INTERACTIONS_PAGE ? last[last.length - 1]!.occurredAt : undefined),
  });
}

export function useBackfillStatus({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: embeddingKeys.backfill(),
    queryFn: ({ signal }) => apiFetch<BackfillStatus>("/embeddings/backfill", { signal }),
    enabled,
  });
}

/** One bounded re-embedding pass; the caller repeats it while rows remain. */
export function useRunBackfill() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (limit: number) => apiFetch<BackfillReport>("/embeddings/backfill", { body: { limit } }),
    onSuccess: (report) => queryClient.setQueryData<BackfillStatus>(embeddingKeys.backfill(), (old) => (old ? { ...old, ...report } : old)),
  });
}
