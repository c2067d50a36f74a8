"use client";

import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from "react";

// Unsaved edits in the console. An edit is kept as a draft in this browser tab's session storage,
// one per thing edited (a document, a knowledge entry, a new entry), with the saved version it
// started from, so it survives switching tabs, visiting other pages and reloading, and a save that
// meets a newer version can be merged instead of lost. Saving or discarding clears it. Leaving the
// page an unsaved edit was made on asks first: closing or reloading the tab (`beforeunload`), and
// the console's own links (`LeaveGuard`). Each unsaved edit leaves a marker naming it and its page,
// so a tab of the page that is not shown (the SOUL while the scratchpad is) still counts, and lists
// can show what waits unsaved (`useUnsavedEdits`) with a link back to where it was made.

const PREFIX = "mhq.draft.";

function read<T>(key: string, valid: (v: unknown) => v is T): T | null {
  if (typeof window === "undefined") return null;
  try {
    const raw = window.sessionStorage.getItem(PREFIX + key);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return valid(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The draft stored under `key` (null: none), and its setter; null clears it. `valid` checks what
 * storage hands back (another version of the console may have written it).
 */
export function useDraft<T>(key: string, valid: (v: unknown) => v is T) {
  const [draft, setDraftState] = useState<T | null>(() => read(key, valid));
  // another thing opened in the same component (a route param changed): its own draft
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setDraftState(read(key, valid));
  }

  const setDraft = useCallback(
    (next: T | null) => {
      setDraftState(next);
      try {
        if (next !== null) window.sessionStorage.setItem(PREFIX + key, JSON.stringify(next));
        else {
          window.sessionStorage.removeItem(PREFIX + key);
          window.sessionStorage.removeItem(MARK + key);
          markersChanged();
        }
      } catch {
        // storage full or disabled: the draft still lives in memory while the editor is open
      }
    },
    [key],
  );

  return [draft, setDraft] as const;
}

// ── what is unsaved, for the leave guards ─────────────────────────────────────────────────────────

const MARK = "mhq.unsaved.";

interface Marker {
  label: string;
  /** the page the edit was made on */
  path: string;
  /** the address to return to it (its page with the tab it was made in); older markers have none */
  href?: string;
}

/** An unsaved edit, by the key of its draft. */
export interface UnsavedEdit {
  key: string;
  label: string;
  href: string;
}

function markers(): (Marker & { key: string })[] {
  const out: (Marker & { key: string })[] = [];
  try {
    for (let i = 0; i < window.sessionStorage.length; i++) {
      const key = window.sessionStorage.key(i);
      if (!key?.startsWith(MARK)) continue;
      const m = JSON.parse(window.sessionStorage.getItem(key) ?? "null") as Marker | null;
      if (m && typeof m.label === "string" && typeof m.path === "string") out.push({ ...m, key: key.slice(MARK.length) });
    }
  } catch {
    // storage disabled: nothing is kept, so nothing is asked
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

// Session storage tells other tabs of a change, never this one: the console tells itself.
const CHANGED = "mhq:unsaved-edits";
function markersChanged() {
  window.dispatchEvent(new Event(CHANGED));
}
function onMarkersChanged(notify: () => void) {
  window.addEventListener(CHANGED, notify);
  return () => window.removeEventListener(CHANGED, notify);
}

/**
 * The unsaved edits of this browser tab whose draft keys start with `prefix` ("knowledge."), in key
 * order, kept current as editors mark and clear them. None while rendering on the server.
 */
export function useUnsavedEdits(prefix: string): UnsavedEdit[] {
  const snapshot = useSyncExternalStore(
    onMarkersChanged,
    () =>
      JSON.stringify(
        markers()
          .filter((m) => m.key.startsWith(prefix))
          .map((m): UnsavedEdit => ({ key: m.key, label: m.label, href: m.href ?? m.path })),
      ),
    () => "[]",
  );
  return useMemo(() => JSON.parse(snapshot) as UnsavedEdit[], [snapshot]);
}

/** Whether the draft under `key` is an unsaved edit (wherever it was made). */
export function useIsUnsaved(key: string): boolean {
  return useUnsavedEdits(key).some((edit) => edit.key === key);
}

/** The unsaved edits made on the page shown now, by their labels. */
export function unsavedHere(): string[] {
  if (typeof window === "undefined") return [];
  return markers()
    .filter((m) => m.path === window.location.pathname)
    .map((m) => m.label);
}

/** Whether leaving this page leaves an unsaved edit behind (for an event handler). */
export const hasUnsavedEdits = () => unsavedHere().length > 0;

let warning = false;
function warnBeforeUnload(e: BeforeUnloadEvent) {
  if (!hasUnsavedEdits()) return;
  e.preventDefault();
  // older browsers show the prompt only when returnValue is set
  e.returnValue = "";
}

/**
 * Declares whether the draft under `key` is an unsaved edit (`dirty`), named `label` ("Scratchpad",
 * "your edit of “Refund requests”"): while it is, leaving its page asks first.
 */
export function useUnsavedEdit(key: string, dirty: boolean, label: string) {
  useEffect(() => {
    try {
      const was = window.sessionStorage.getItem(MARK + key);
      if (dirty) {
        const { pathname, search } = window.location;
        // the address of the first change: the tab the editor is in (a later visit may show another)
        const href = (was && (JSON.parse(was) as Marker).href) || pathname + search;
        window.sessionStorage.setItem(MARK + key, JSON.stringify({ label, path: pathname, href } satisfies Marker));
      } else window.sessionStorage.removeItem(MARK + key);
      if ((window.sessionStorage.getItem(MARK + key) ?? null) !== was) markersChanged();
    } catch {
      // storage disabled: see markers()
    }
    if (dirty && !warning) {
      warning = true;
      window.addEventListener("beforeunload", warnBeforeUnload);
    }
  }, [key, dirty, label]);
}

/**
 * A form's text fields as one draft (a dialog's: what was typed survives an Esc, a click beside the
 * dialog, a reload). `empty` is the form untouched; `clear` forgets the draft (after saving, or on
 * Cancel).
 */
export function useFormDraft<T extends Record<string, string>>(key: string, empty: T, label: string) {
  const fields = Object.keys(empty);
  const [draft, setDraft] = useDraft(key, (v: unknown): v is T => typeof v === "object" && v !== null && fields.every((f) => typeof (v as Record<string, unknown>)[f] === "string"));
  const values = draft ?? empty;
  const dirty = draft !== null && fields.some((f) => draft[f] !== empty[f]);
  useUnsavedEdit(key, dirty, label);
  return {
    values,
    change: (changes: Partial<T>) => setDraft({ ...values, ...changes }),
    clear: () => setDraft(null),
  };
}
