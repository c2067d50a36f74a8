"use client";

import { useState, type ReactNode } from "react";
import { TextDiff } from "@/components/knowledge/version-diff";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/console/format";

/** the version someone else saved: an agent document, or a knowledge entry's content */
export interface SavedVersion {
  version: number;
  content: string;
  updatedAt: string | null;
  updatedByName?: string | null;
}

/**
 * Someone saved the document after this editor loaded it. Shows what differs between their saved
 * version and yours, and makes merging both the default; taking the saved version or overwriting it
 * with yours are deliberate, secondary choices (overwriting asks once more, naming what it drops).
 * Used by every editor with optimistic concurrency: agent documents and knowledge entries.
 */
export function VersionConflictDialog({
  open,
  mine,
  theirs,
  saving,
  onMerge,
  onOverwrite,
  onUseTheirs,
  onClose,
  noun = "document",
  children,
}: {
  open: boolean;
  mine: string;
  theirs: SavedVersion | null;
  saving: boolean;
  onMerge: () => void;
  onOverwrite: () => void;
  onUseTheirs: () => void;
  onClose: () => void;
  /** what is being edited, in the overwrite warning */
  noun?: string;
  /** more differences than the text (a knowledge entry's title, category, tags) */
  children?: ReactNode;
}) {
  const [confirmOverwrite, setConfirmOverwrite] = useState(false);
  const who = theirs?.updatedByName || "someone else";

  return (
    <Dialog
      open={open && theirs !== null}
      onClose={() => {
        setConfirmOverwrite(false);
        onClose();
      }}
      size="lg"
      dismissible={!saving}
      title="Someone else saved first"
      description={
        theirs && (
          <>
            Version {theirs.version} was saved by {who} at {formatDateTime(theirs.updatedAt)}, after you started editing. Nothing of yours is
            lost: merge both edits, then check the result before saving.
          </>
        )
      }
    >
      {theirs && (
        <section aria-label="Differences" data-testid="conflict-diff">
          <p className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
            <span>
              <span className="mr-1 inline-block size-2.5 rounded-sm bg-red-300 align-middle" aria-hidden="true" />
              only in version {theirs.version} (saved by {who})
            </span>
            <span>
              <span className="mr-1 inline-block size-2.5 rounded-sm bg-emerald-300 align-middle" aria-hidden="true" />
              only in your unsaved text
            </span>
          </p>
          <TextDiff before={theirs.content} after={mine} className="max-h-80 overflow-y-auto" />
        </section>
      )}
      {children}
      {confirmOverwrite && theirs && (
        <div role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 px-3.5 py-2.5 text-sm text-red-800">
          Overwriting replaces version {theirs.version} with your text: the red lines above, written by {who}, will be gone from the
          {" "}{noun}.
          <div className="mt-2 flex gap-2">
            <Button variant="danger" size="sm" onClick={onOverwrite} loading={saving}>
              Overwrite version {theirs.version}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirmOverwrite(false)} disabled={saving}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      <DialogFooter>
        <Button variant="danger-ghost" onClick={() => setConfirmOverwrite(true)} disabled={saving || confirmOverwrite} className="sm:mr-auto">
          Overwrite with mine…
        </Button>
        <Button variant="ghost" onClick={onUseTheirs} disabled={saving}>
          Discard mine, use saved
        </Button>
        <Button data-autofocus onClick={onMerge} disabled={saving}>
          Merge both
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
