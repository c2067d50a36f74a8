"use client";

import { useQuery } from "@tanstack/react-query";
import { usePagedQuery } from "@/lib/console/hooks/paged-list";
import type { AuditEntry } from "@/lib/console/types";
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

/** The audit log, newest first, a page at a time by the API's keyset cursor (each page starts after the oldest entry of the one before). */
export function useAuditLog(filters: AuditFilters, { page, pageSize, enabled = true }: { page: number; pageSize: number; enabled?: boolean }) {
  return usePagedQuery({
    queryKey: auditKeys.list(filters),
    paging: "cursor",
    page,
    pageSize,
    enabled,
    fetchPage: ({ cursor, limit, signal }) => apiCall(auditContracts.list, { query: { limit, ...filters, cursor } }, { signal }),
    rows: (r) => r.entries as AuditEntry[],
    nextCursor: (r) => r.nextCursor,
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
