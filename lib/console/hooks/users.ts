"use client";

import { useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { useAuditedWrite, type WriteCallbacks } from "@/lib/console/hooks/write";
import { userKeys } from "@/lib/console/query-keys";
import type { HqRole, HqUser, InviteResult } from "@/lib/console/types";
import { authContracts } from "@/lib/auth/contracts";

/** HQ users (admin only: pass `enabled: false` for others, who get 403). */
export function useHqUsers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => apiCall(authContracts.listUsers, {}, { signal }).then((r) => r.users),
    enabled,
  });
}

export type InviteUserBody = { email: string; role: HqRole; name?: string };

export function useInviteUser(callbacks?: WriteCallbacks<InviteResult, InviteUserBody>) {
  return useAuditedWrite(
    (body: InviteUserBody) => apiCall(authContracts.inviteUser, { body }),
    () => [userKeys.all],
    callbacks,
  );
}

/** A new invitation link for a user who has not accepted one (the earlier link stops working). */
export function useReinviteUser(callbacks?: WriteCallbacks<InviteResult, { id: string }>) {
  return useAuditedWrite(
    ({ id }: { id: string }) => apiCall(authContracts.reinviteUser, { params: { id } }),
    () => [userKeys.all],
    callbacks,
  );
}

export type UpdateUserVars = { id: string; role?: HqRole; disabled?: boolean };

/** Changes a user's role or disables them; the list refreshes after a failure too. */
export function useUpdateHqUser(callbacks?: WriteCallbacks<{ user: HqUser }, UpdateUserVars>) {
  return useAuditedWrite(
    ({ id, ...body }: UpdateUserVars) => apiCall(authContracts.updateUser, { params: { id }, body }),
    () => [userKeys.all],
    callbacks,
    "settled",
  );
}
