"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { useAuditedWrite } from "@/lib/client/hooks/write";
import { userKeys } from "@/lib/client/query-keys";

// Signing in and out open and end sessions (not audited); setting up HQ and accepting an invitation
// create or complete an HQ user (audited). Each is followed by a full navigation, so the caller awaits it.

export function useLogin() {
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => apiFetch("/auth/login", { method: "POST", body }),
  });
}

/** Ends the session; `clearCache` forgets every cached answer of the signed-in console, even when the call fails. */
export function useLogout({ clearCache = false }: { clearCache?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch("/auth/logout", { method: "POST" }),
    onSettled: () => {
      if (clearCache) queryClient.clear();
    },
  });
}

export function useSetup() {
  return useAuditedWrite(
    (body: { name: string; email: string; password: string }) => apiFetch("/auth/setup", { method: "POST", body }),
    () => [userKeys.all],
  );
}

export function useAcceptInvite() {
  return useAuditedWrite(
    (body: { token: string; password: string; name?: string }) => apiFetch("/auth/accept-invite", { method: "POST", body }),
    () => [userKeys.all],
  );
}
