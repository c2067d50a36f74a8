"use client";

import { useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { useAuditedWrite, type WriteCallbacks } from "@/lib/console/hooks/write";
import { constantKeys } from "@/lib/console/query-keys";
import type { ConstantCategory } from "@/lib/console/types";
import { lockedConstantContracts } from "@/lib/locked-constants/contracts";

export function useLockedConstants() {
  return useQuery({
    queryKey: constantKeys.list(),
    queryFn: ({ signal }) => apiCall(lockedConstantContracts.list, {}, { signal }).then((r) => r.constants),
  });
}

export type ConstantBody = { label: string; value: string; category: ConstantCategory; description: string };

/** Creates or replaces the constant under `key`. */
export function useSaveConstant(key: string, callbacks?: WriteCallbacks<unknown, ConstantBody>) {
  return useAuditedWrite(
    (body: ConstantBody) => apiCall(lockedConstantContracts.put, { params: { key }, body }),
    () => [constantKeys.all],
    callbacks,
  );
}

export function useDeleteConstant() {
  return useAuditedWrite(
    (key: string) => apiCall(lockedConstantContracts.remove, { params: { key } }),
    () => [constantKeys.all],
  );
}

/** Puts a deleted constant back as it was (Undo of a delete): a new write, on the audit log like the delete. */
export function useRecreateConstant() {
  return useAuditedWrite(
    (c: { key: string } & ConstantBody) =>
      apiCall(lockedConstantContracts.put, { params: { key: c.key }, body: { label: c.label, value: c.value, category: c.category, description: c.description } }),
    () => [constantKeys.all],
  );
}
