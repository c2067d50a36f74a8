"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useLogout } from "@/lib/console/hooks/session";

/** Ends whatever session is left and goes back to sign-in, to try another account. */
export function SignOutAgain() {
  const [pending, setPending] = useState(false);
  const logout = useLogout();
  async function onClick() {
    setPending(true);
    try {
      await logout.mutateAsync();
    } catch {
      // nothing to end: sign-in is the right place either way
    }
    window.location.assign("/login");
  }
  return (
    <Button variant="secondary" className="w-full" loading={pending} onClick={onClick}>
      Sign in with another account
    </Button>
  );
}
