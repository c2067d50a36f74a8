"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { useAuditedWrite, type WriteCallbacks } from "@/lib/client/hooks/write";
import { constantKeys } from "@/lib/client/query-keys";
import type { ConstantCategory, LockedConstant } from "@/lib/client/types";

export function useLockedConstants() {
  return useQuery({
    queryKey: constantKeys.list(),
    queryFn: ({ signal }) => apiFetch<{ constants: LockedConstant[] }>("/locked-constants", { signal }).then((r) => r.constants),
  });
}

export type ConstantBody = { label: string; value: string; category: ConstantCategory; description: string };

/** Creates or replaces the constant under `key`. */
export function useSaveConstant(key: string, callbacks?: WriteCallbacks<unknown, ConstantBody>) {
  return useAuditedWrite(
    (body: ConstantBody) => apiFetch(`/locked-constants/${encodeURIComponent(key)}`, { method: "PUT", body }),
    () => [constantKeys.all],
    callbacks,
  );
}

export function useDeleteConstant() {
  return useAuditedWrite(
    (key: string) => apiFetch(`/locked-constants/${encodeURIComponent(key)}`, { method: "DELETE" }),
    () => [constantKeys.all],
  );
}
