"use client";

import type { ReactNode } from "react";

/**
 * Where an irreversible action lives: at the foot of its page, apart from everyday work, never the
 * page's primary action. Its button only opens a `ConfirmDialog` with a `phrase` to type. Reversible
 * actions (archive, disable) act at once with Undo in their toast instead.
 */
export function DangerZone({ title = "Danger zone", children }: { title?: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-red-200 bg-white" data-testid="danger-zone">
      <h2 className="border-b border-red-100 px-5 py-3 text-sm font-semibold text-red-800">{title}</h2>
      <div className="divide-y divide-red-100">{children}</div>
    </section>
  );
}

/** One irreversible action in a danger zone: what it does, and its button. */
export function DangerAction({ title, description, action }: { title: string; description: ReactNode; action: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4 px-5 py-4">
      <div className="min-w-0 max-w-2xl">
        <p className="text-sm font-medium text-slate-900">{title}</p>
        <div className="mt-0.5 text-sm text-slate-600">{description}</div>
      </div>
      {action}
    </div>
  );
}
