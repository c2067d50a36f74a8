"use client";

import { useDraft, useUnsavedEdit } from "@/lib/console/drafts";

export interface DocumentDraft {
  content: string;
  /** the saved version the edit started from (sent as expectedVersion) */
  baseVersion: number;
  /** that version's text: the common ancestor when a conflicting save has to be merged */
  baseContent: string;
}

const isDocumentDraft = (d: unknown): d is DocumentDraft =>
  typeof d === "object" && d !== null && typeof (d as DocumentDraft).content === "string" && typeof (d as DocumentDraft).baseVersion === "number" && typeof (d as DocumentDraft).baseContent === "string";

/**
 * An unsaved edit of an agent document (the console's drafts: kept in this tab's session storage,
 * so it survives switching tabs, visiting other pages and reloading; leaving with it unsaved asks first).
 */
export function useDocumentDraft(key: string, label: string) {
  const [draft, setDraft] = useDraft(key, isDocumentDraft);
  useUnsavedEdit(key, draft !== null && draft.content !== draft.baseContent, label);
  return [draft, setDraft] as const;
}
