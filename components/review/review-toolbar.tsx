"use client";

import { Button } from "@/components/ui/button";

/** What to do with the ticked suggestions; stays in view while the list scrolls. */
export function ReviewToolbar({ count, onApprove, onReject, onClear }: { count: number; onApprove: () => void; onReject: () => void; onClear: () => void }) {
  return (
    <div className="sticky top-16 z-10 mb-4 flex flex-wrap items-center gap-2 rounded-lg bg-slate-900 px-4 py-2.5 text-sm text-white shadow-lg" role="region" aria-label="Bulk actions">
      <span className="mr-auto font-medium" aria-live="polite">
        {count === 1 ? "1 suggestion selected" : `${count} suggestions selected`}
      </span>
      <Button size="sm" onClick={onApprove} title="Approve the selected suggestions (a); Undo takes them back">
        Approve selected
      </Button>
      <Button size="sm" variant="danger" onClick={onReject} title="Reject the selected suggestions with one reason (r)">
        Reject selected…
      </Button>
      <Button size="sm" variant="ghost" className="text-white hover:bg-slate-800 hover:text-white" onClick={onClear} title="Clear the selection (Esc)">
        Clear
      </Button>
    </div>
  );
}
