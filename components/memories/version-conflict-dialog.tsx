"use client";

import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/client/format";
import type { AgentDocument } from "@/lib/client/memory-types";

/**
 * Someone saved the document after this editor loaded it: shows both versions side by side and
 * lets the person keep theirs (overwriting the newer save on purpose), take the saved one, or go
 * back to editing.
 */
export function VersionConflictDialog({
  open,
  mine,
  theirs,
  saving,
  onKeepMine,
  onUseTheirs,
  onClose,
}: {
  open: boolean;
  mine: string;
  theirs: AgentDocument | null;
  saving: boolean;
  onKeepMine: () => void;
  onUseTheirs: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open && theirs !== null}
      onClose={onClose}
      size="lg"
      dismissible={!saving}
      title="Someone else saved first"
      description={
        theirs && (
          <>
            Version {theirs.version} was saved{theirs.updatedByName ? ` by ${theirs.updatedByName}` : ""} at {formatDateTime(theirs.updatedAt)}, after
            you started editing. Nothing of yours is lost — choose which version to keep.
          </>
        )
      }
    >
      {theirs && (
        <div className="grid gap-4 sm:grid-cols-2">
          <section aria-label="Your version" data-testid="conflict-mine">
            <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Your version (unsaved)</h3>
            <pre className="max-h-72 overflow-auto rounded-md border border-indigo-200 bg-indigo-50/50 p-3 font-mono text-xs whitespace-pre-wrap text-slate-800">
              {mine || <span className="text-slate-400">(empty)</span>}
            </pre>
          </section>
          <section aria-label="Saved version" data-testid="conflict-theirs">
            <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Saved version {theirs.version}</h3>
            <pre className="max-h-72 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap text-slate-800">
              {theirs.content || <span className="text-slate-400">(empty)</span>}
            </pre>
          </section>
        </div>
      )}
      <DialogFooter>
        <Button variant="ghost" onClick={onClose} disabled={saving}>
          Keep editing
        </Button>
        <Button variant="secondary" onClick={onUseTheirs} disabled={saving}>
          Use saved version
        </Button>
        <Button onClick={onKeepMine} loading={saving}>
          Keep my version
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
