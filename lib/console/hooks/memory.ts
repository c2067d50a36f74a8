"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiCall } from "@/lib/console/api";
import { usePagedQuery } from "@/lib/console/hooks/paged-list";
import type { AgentDocument, BackfillStatus, DocumentType, Memory, MemoryFilters } from "@/lib/console/memory-types";
import { auditKeys, documentKeys, embeddingKeys, interactionKeys, memoryKeys } from "@/lib/console/query-keys";
import { documentContracts } from "@/lib/documents/contracts";
import { embeddingContracts } from "@/lib/embeddings/contracts";
import { memoryContracts } from "@/lib/memories/contracts";

export function useAgentDocument(agentId: string, type: DocumentType, date?: string) {
  return useQuery({
    queryKey: documentKeys.detail(agentId, type, date),
    queryFn: ({ signal }) => apiCall(documentContracts.get, { params: { agentId, type }, query: { date } }, { signal }),
  });
}

/** Saves with the version the editor loaded; a 409 (`version_conflict`) carries the current document. */
export function useSaveDocument(agentId: string, type: DocumentType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { content: string; expectedVersion: number; date?: string }) =>
      apiCall(documentContracts.put, { params: { agentId, type }, body }),
    onSuccess: (saved, body) => {
      // show what was saved at once; the refetch below confirms it
      queryClient.setQueryData<AgentDocument>(documentKeys.detail(agentId, type, body.date), (old) =>
        old ? { ...old, content: body.content, version: saved.version, updatedAt: saved.updatedAt } : old,
      );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: documentKeys.agent(agentId) }),
        queryClient.invalidateQueries({ queryKey: embeddingKeys.all }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]);
    },
  });
}

export function useDailyNotes(agentId: string) {
  return useQuery({
    queryKey: documentKeys.dailyList(agentId),
    queryFn: ({ signal }) => apiCall(documentContracts.listDaily, { params: { agentId } }, { signal }),
  });
}

/** An agent's memories a page at a time, newest first (the API's offset and total). */
export function useMemories(agentId: string, filters: MemoryFilters, { page, pageSize }: { page: number; pageSize: number }) {
  return usePagedQuery({
    queryKey: memoryKeys.list(agentId, { ...filters }),
    paging: "offset",
    page,
    pageSize,
    fetchPage: ({ limit, offset, signal }) =>
      apiCall(memoryContracts.list, { params: { agentId }, query: { ...filters, limit, offset } as never }, { signal }),
    rows: (r) => r.memories as Memory[],
    total: (r) => r.total,
  });
}

export function useUpdateMemory(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; status?: string; expectedVersion?: number }) =>
      apiCall(memoryContracts.update, { params: { id }, body: body as never }),
    // HQ's edits are audited
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: memoryKeys.agent(agentId) }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}

export function useRecordOutcome(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; result: string; success: boolean; notes?: string }) =>
      apiCall(memoryContracts.outcome, { params: { id }, body }),
    // recorded outcomes are audited
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: memoryKeys.agent(agentId) }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}

/** Conversations a page at a time; a search's matching turns a page at a time. */
export const CONVERSATIONS_PAGE = 25;
const SEARCH_HITS_PAGE = 25;
/** A thread's turns per request: a thread longer than this is fetched in several. */
const THREAD_PAGE = 200;

export interface ConversationFilters {
  agentId?: string;
  contactId?: string;
  channel?: string;
}

/** Conversations (threads), the most recently active first, the address's page (keyset paging). */
export function useConversations(filters: ConversationFilters, page: number, { enabled = true } = {}) {
  return usePagedQuery({
    queryKey: interactionKeys.conversations(filters),
    paging: "cursor",
    page,
    pageSize: CONVERSATIONS_PAGE,
    enabled,
    fetchPage: ({ limit, cursor, signal }) => apiCall(memoryContracts.listConversations, { query: { ...filters, cursor, limit } }, { signal }),
    rows: (r) => r.conversations,
    nextCursor: (r) => r.nextCursor,
  });
}

/** The turns that match a search (full text), newest first, with the contacts they name. */
export function useInteractionSearch(filters: ConversationFilters & { q: string }, page: number, { enabled = true } = {}) {
  return usePagedQuery({
    queryKey: interactionKeys.list(filters),
    paging: "cursor",
    page,
    pageSize: SEARCH_HITS_PAGE,
    enabled: enabled && Boolean(filters.q),
    fetchPage: ({ limit, cursor, signal }) => apiCall(memoryContracts.listInteractions, { query: { ...filters, cursor, limit } }, { signal }),
    rows: (r) => r.interactions,
    nextCursor: (r) => r.nextCursor,
  });
}

/** Every turn of one conversation, in order (fetched a page after another until the end). */
export function useThread(thread: { agentId: string; conversation: string } | null) {
  const query = useInfiniteQuery({
    queryKey: interactionKeys.thread(thread?.agentId ?? "", thread?.conversation ?? ""),
    queryFn: ({ pageParam, signal }) =>
      apiCall(
        memoryContracts.listInteractions,
        { query: { agentId: thread!.agentId, conversationId: thread!.conversation, cursor: pageParam, limit: THREAD_PAGE } },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: thread !== null,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const pages = query.data?.pages ?? [];
  return {
    ...query,
    turns: pages.flatMap((p) => p.interactions),
    contacts: new Map(pages.flatMap((p) => p.contacts).map((c) => [c.id, c.name])),
    complete: query.isSuccess && !hasNextPage,
  };
}

export function useBackfillStatus({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: embeddingKeys.backfill(),
    queryFn: ({ signal }) => apiCall(embeddingContracts.status, {}, { signal }),
    enabled,
  });
}

/** One bounded re-embedding pass; the caller repeats it while rows remain. */
export function useRunBackfill() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (limit: number) => apiCall(embeddingContracts.run, { body: { limit } }),
    onSuccess: (report) => {
      queryClient.setQueryData<BackfillStatus>(embeddingKeys.backfill(), (old) => (old ? { ...old, ...report } : old));
      // each pass is audited (not awaited: the caller runs the next pass at once)
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
    },
  });
}
