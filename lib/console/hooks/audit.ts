"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { auditKeys } from "@/lib/console/query-keys";
import { auditContracts } from "@/lib/audit/contracts";
import type { AUDIT_ACTOR_TYPES } from "@/lib/audit/schemas";

export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export interface AuditFilters {
  action?: string;
  actorType?: AuditActorType;
  actor?: string;
  from?: string;
  to?: string;
}

/** The audit log, newest first, `pageSize` entries a page; the next page starts after the oldest entry shown (keyset cursor). */
export function useAuditLog(filters: AuditFilters, { pageSize, enabled = true }: { pageSize: number; enabled?: boolean }) {
  return useInfiniteQuery({
    queryKey: auditKeys.list({ ...filters, limit: pageSize }),
    queryFn: ({ pageParam, signal }) =>
      apiCall(auditContracts.list, { query: { limit: pageSize, ...filters, cursor: pageParam } }, { signal }),
    enabled,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Whether the audit log holds at least one entry matching `filters`. */
export function useAnyAudit(filters: { action?: string; actorType?: AuditActorType }) {
  return useQuery({
    queryKey: auditKeys.list({ ...filters, limit: 1 }),
    queryFn: ({ signal }) =>
      apiCall(auditContracts.list, { query: { ...filters, limit: 1 } }, { signal }).then((r) => r.entries.length > 0),
  });
}
