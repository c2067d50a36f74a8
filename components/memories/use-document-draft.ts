"use client";

import { useCallback, useEffect, useState } from "react";

export interface DocumentDraft {
  content: string;
  /** the saved version the edit started from (sent as expectedVersion) */
  baseVersion: number;
  /** that version's text: the common ancestor when a conflicting save has to be merged */
  baseContent: string;
}

const PREFIX = "mhq.draft.";

function read(key: string): DocumentDraft | null {
  if (typeof window === "undefined") return null;
  try {
    const raw = window.sessionStorage.getItem(PREFIX + key);
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<DocumentDraft>;
    return typeof d.content === "string" && typeof d.baseVersion === "number" && typeof d.baseContent === "string"
      ? { content: d.content, baseVersion: d.baseVersion, baseContent: d.baseContent }
      : null;
  } catch {
    return null;
  }
}

/**
 * An unsaved edit of an agent document, kept in this browser tab's session storage so it survives
 * switching tabs, visiting other pages and reloading; closing the tab with it unsaved asks first.
 */
export function useDocumentDraft(key: string) {
  const [draft, setDraftState] = useState<DocumentDraft | null>(() => read(key));

  const setDraft = useCallback(
    (next: DocumentDraft | null) => {
      setDraftState(next);
      try {
        if (next) window.sessionStorage.setItem(PREFIX + key, JSON.stringify(next));
        else window.sessionStorage.removeItem(PREFIX + key);
      } catch {
        // storage full or disabled: the draft still lives in memory while the editor is open
      }
    },
    [key],
  );

  const dirty = draft !== null && draft.content !== draft.baseContent;
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // older browsers show the prompt only when returnValue is set
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  return [draft, setDraft] as const;
}
