"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { capitalize } from "@/lib/console/format";
import { useLogout } from "@/lib/console/hooks/session";
import { useCurrentUser } from "./current-user";
import { SignOutIcon } from "./icons";

const ROLE_TONE = { admin: "indigo", curator: "blue", viewer: "neutral" } as const;

export function UserMenu() {
  const user = useCurrentUser();
  // forget every cached answer, so nothing of the signed-in console survives
  const logout = useLogout({ clearCache: true });
  const [signingOut, setSigningOut] = useState(false);

  async function signOut() {
    setSigningOut(true);
    try {
      await logout.mutateAsync();
    } catch {
      // the cookie may already be gone; the login page is the right place either way
    }
    // a full navigation, so no cached page of the signed-in console survives
    window.location.assign("/login");
  }

  const initials = (user.name || user.email || "?")
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((s) => s[0]!.toUpperCase())
    .join("");

  return (
    <div className="flex items-center gap-3">
      <div className="hidden text-right sm:block">
        <p className="text-sm leading-tight font-medium text-slate-900" data-testid="current-user-name">
          {user.name}
        </p>
        {user.email && user.email !== user.name && <p className="text-xs leading-tight text-slate-500">{user.email}</p>}
      </div>
      <Badge tone={ROLE_TONE[user.role]}>{capitalize(user.role)}</Badge>
      <div className="flex size-8 items-center justify-center rounded-full bg-slate-800 text-xs font-semibold text-white" aria-hidden="true">
        {initials}
      </div>
      <Button variant="ghost" size="sm" onClick={signOut} loading={signingOut}>
        {!signingOut && <SignOutIcon className="size-4" />}
        <span className="max-sm:sr-only">Sign out</span>
      </Button>
    </div>
  );
}
