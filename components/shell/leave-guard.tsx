"use client";

import Link, { type LinkProps } from "next/link";
import { useRouter } from "next/navigation";
import { createContext, useContext, useState, type AnchorHTMLAttributes, type ReactNode } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { hasUnsavedEdits, unsavedHere } from "@/lib/console/drafts";

const AskToLeave = createContext<((href: string) => void) | null>(null);

/**
 * Asks before the console's own links leave a page with an unsaved edit made on it (Next.js's `Link`
 * `onNavigate`, which may cancel a client-side navigation). The edit is kept as a draft either way;
 * the question says so. Reloading or closing the tab asks through the browser (`beforeunload`).
 */
export function LeaveGuard({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [leaving, setLeaving] = useState<{ to: string; edits: string[] } | null>(null);
  const leavingTo = leaving?.to ?? null;
  const edits = leaving?.edits ?? [];
  return (
    <AskToLeave.Provider value={(to) => setLeaving({ to, edits: unsavedHere() })}>
      {children}
      <ConfirmDialog
        open={leavingTo !== null}
        onClose={() => setLeaving(null)}
        tone="primary"
        title="Leave with unsaved changes?"
        description={
          <>
            <p>
              {edits.length ? `You have not saved ${edits.join(" and ")}.` : "You have unsaved changes."} They are kept as a draft in this browser
              tab, and will be there when you come back.
            </p>
          </>
        }
        cancelLabel="Stay"
        confirmLabel="Leave"
        onConfirm={() => {
          if (leavingTo) router.push(leavingTo);
        }}
      />
    </AskToLeave.Provider>
  );
}

/** A console link that asks first when an edit is unsaved (inside `LeaveGuard`). */
export function GuardedLink({ onNavigate, ...props }: LinkProps & AnchorHTMLAttributes<HTMLAnchorElement> & { children?: ReactNode }) {
  const ask = useContext(AskToLeave);
  return (
    <Link
      {...props}
      onNavigate={(e) => {
        onNavigate?.(e);
        if (!ask || !hasUnsavedEdits()) return;
        e.preventDefault();
        ask(typeof props.href === "string" ? props.href : String(props.href));
      }}
    />
  );
}
