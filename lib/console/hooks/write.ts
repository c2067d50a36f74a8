"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { auditKeys } from "@/lib/console/query-keys";

/** What a component may add to a write: its own reaction once the caches are fresh, and its error display. */
export interface WriteCallbacks<TData, TVars> {
  onSuccess?: (data: TData, vars: TVars) => unknown;
  onError?: (err: Error, vars: TVars) => unknown;
}

/**
 * Every console write is audited, so every write refreshes the audit log with the keys it changed.
 * `invalidateOn: "success"` (default) refreshes before the caller's `onSuccess` runs, so a dialog closes
 * onto fresh data; `"settled"` refreshes after a failure too (the server may have changed part of it).
 */
export function useAuditedWrite<TData, TVars>(
  mutationFn: (vars: TVars) => Promise<TData>,
  keys: (vars: TVars) => QueryKey[],
  { onSuccess, onError }: WriteCallbacks<TData, TVars> = {},
  invalidateOn: "success" | "settled" = "success",
) {
  const queryClient = useQueryClient();
  const invalidate = (vars: TVars) =>
    Promise.all([...keys(vars), auditKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  return useMutation({
    mutationFn,
    onSuccess: async (data, vars) => {
      if (invalidateOn === "success") await invalidate(vars);
      await onSuccess?.(data, vars);
    },
    onError: onError ? (err, vars) => onError(err, vars) : undefined,
    onSettled: invalidateOn === "settled" ? (_data, _err, vars) => invalidate(vars) : undefined,
  });
}
