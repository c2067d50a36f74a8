"use client";

import type { ReactNode } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { plural } from "@/lib/console/format";
import { useContacts } from "@/lib/console/hooks/review";

/**
 * How many field managers' opt-outs HQ has still to finish in its own records; 0 for a caller who
 * cannot see them (only HQ admins do).
 */
export function useHqErasuresWaiting(): number {
  const isAdmin = useIsAdmin();
  const waiting = useContacts({ hqErasurePending: true }, { page: 1, pageSize: 1, enabled: isAdmin });
  return isAdmin ? (waiting.total ?? 0) : 0;
}

/** Says that `count` opt-outs wait for HQ, with `show` (a link or a button) to list them. */
export function HqErasuresAlert({ count, show }: { count: number; show: (label: string) => ReactNode }) {
  if (count <= 0) return null;
  return (
    <Alert tone="warning" className="mb-4" title={`${plural(count, "opt-out")} to finish in HQ's records`}>
      A field manager's opt-out erases inside its own client only. HQ's own records (the knowledge base, internal agents' memories and documents) still name{" "}
      {count === 1 ? "this person" : "these people"}. {show(`Show ${count === 1 ? "it" : "them"}`)}
    </Alert>
  );
}
