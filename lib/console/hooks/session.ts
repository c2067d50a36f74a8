"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { useAuditedWrite } from "@/lib/console/hooks/write";
import { userKeys } from "@/lib/console/query-keys";
import { authContracts } from "@/lib/auth/contracts";

// Signing in and out open and end sessions (not audited); setting up HQ and accepting an invitation
// create or complete an HQ user (audited). Each is followed by a full navigation, so the caller awaits it.

export function useLogin() {
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => apiCall(authContracts.login, { body }),
  });
}

/** Ends the session; `clearCache` forgets every cached answer of the signed-in console, even when the call fails. */
export function useLogout({ clearCache = false }: { clearCache?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(authContracts.logout, {}),
    onSettled: () => {
      if (clearCache) queryClient.clear();
    },
  });
}

export function useSetup() {
  return useAuditedWrite(
    (body: { name: string; email: string; password: string }) => apiCall(authContracts.setup, { body }),
    () => [userKeys.all],
  );
}

export function useAcceptInvite() {
  return useAuditedWrite(
    (body: { token: string; password: string; name?: string }) => apiCall(authContracts.acceptInvite, { body }),
    () => [userKeys.all],
  );
}

/** Signs in through Supabase Auth on the server (when HQ uses it); the session cookies come back with the answer. */
export function useSupabaseSignIn() {
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => apiCall(authContracts.supabasePassword, { body }),
  });
}

/** Asks Supabase Auth to email a sign-in link (the same answer whether or not the address has an account). */
export function useSupabaseMagicLink() {
  return useMutation({
    mutationFn: (body: { email: string }) => apiCall(authContracts.supabaseMagicLink, { body }),
  });
}
