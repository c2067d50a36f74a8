"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { HqRole, SessionUser } from "@/lib/console/types";

const CurrentUserContext = createContext<SessionUser | null>(null);

/** Set once by the (hq) layout from the server-side session; pages read it to hide controls. */
export function CurrentUserProvider({ user, children }: { user: SessionUser; children: ReactNode }) {
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}

export function useCurrentUser(): SessionUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error("useCurrentUser must be used inside the HQ console (CurrentUserProvider)");
  return user;
}

/** True when the signed-in user has one of `roles`. The API enforces the same rules; this only hides controls. */
export function useHasRole(...roles: HqRole[]): boolean {
  return roles.includes(useCurrentUser().role);
}

export const useIsAdmin = () => useCurrentUser().role === "admin";
/** admins and curators: may edit knowledge and review suggestions */
export const useCanCurate = () => {
  const role = useCurrentUser().role;
  return role === "admin" || role === "curator";
};
