"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { auditKeys } from "@/lib/client/query-keys";
import type { AuditEntry } from "@/lib/client/types";

export interface AuditFilters {
  action?: string;
  actorType?: string;
  actor?: string;
  from?: string;
  to?: string;
}

/** The audit log, newest first, `pageSize` entries a page; the next page starts after the oldest entry shown (keyset cursor). */
export function useAuditLog(filters: AuditFilters, { pageSize, enabled = true }: { pageSize: number; enabled?: boolean }) {
  return useInfiniteQuery({
    queryKey: auditKeys.list({ ...filters, limit: pageSize }),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<{ entries: AuditEntry[]; nextCursor: string | null }>("/audit", {
        query: { limit: pageSize, ...filters, cursor: pageParam },
        signal,
      }),
    enabled,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Whether the audit log holds at least one entry matching `filters`. */
export function useAnyAudit(filters: { action?: string; actorType?: string }) {
  return useQuery({
    queryKey: auditKeys.list({ ...filters, limit: 1 }),
    queryFn: ({ signal }) =>
      apiFetch<{ entries: AuditEntry[] }>("/audit", { query: { ...filters, limit: 1 }, signal }).then((r) => r.entries.length > 0),
  });
}
