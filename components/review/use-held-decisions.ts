"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useToast } from "@/components/ui/toast";
import { errorMessage } from "@/lib/console/api";
import { useSendReviewDecision, type ReviewDecision } from "@/lib/console/hooks/review";
import { withIds } from "./use-selection";

/**
 * How long a decision waits before it is sent. Undo within it sends nothing. An approval writes a
 * canonical fact the moment it is sent — it may replace the fact before it, and agents may read it
 * at once — so the honest Undo is one before anything happens, not a second write that pretends the
 * first never reached anyone. Once sent, a fact is corrected the ordinary way (a new suggestion, or
 * an admin's direct write), and both show in the audit log.
 */
export const HOLD_MS = 6_000;
export interface Decision extends ReviewDecision {
  /** what the toast says was done, e.g. “Approved “preferred_time” for Dana” */
  label: string;
}

interface Held extends Decision {
  timer: ReturnType<typeof setTimeout>;
  toast: number;
}

/**
 * Review decisions held for a short grace window before they are sent: the rows leave the queue at
 * once, the toast offers Undo, and the request goes when the window ends — or at once when the page
 * is left (on closing or reloading the tab, as a request that outlives the page).
 */
export function useHeldDecisions() {
  const toast = useToast();
  const held = useRef(new Map<number, Held>());
  const nextId = useRef(1);
  // rows waiting to be sent, or sent and waiting for the refreshed list: hidden from the queue
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());

  const hide = useCallback((ids: string[], on: boolean) => setHidden((prev) => withIds(prev, ids, on)), []);

  const decisions = useSendReviewDecision();

  const send = useCallback(
    async (d: Decision & { toast?: number }, { keepalive = false }: { keepalive?: boolean } = {}) => {
      // the toast that said it was done (it can outlast the hold) goes when it was not done after all
      const retract = () => d.toast !== undefined && toast.dismiss(d.toast);
      try {
        const r = await decisions.send(d, { keepalive });
        if (r.superseded) {
          toast.show({ tone: "info", text: `Kept the current “${r.superseded.key}”: ${r.superseded.reason ?? "it has higher confidence"}` });
        }
        if (r.failures.length) {
          retract();
          toast.show({
            tone: "warning",
            text: `${d.decision === "approve" ? "Approved" : "Rejected"} ${r.done} of ${d.ids.length}. Not done: ${[...new Set(r.failures)].slice(0, 3).join("; ")}`,
          });
        }
      } catch (err) {
        retract();
        toast.show({ tone: "error", text: `Couldn't ${d.decision} ${d.ids.length === 1 ? "it" : `${d.ids.length} suggestions`}: ${errorMessage(err)}` });
      } finally {
        if (!keepalive) {
          await decisions.refresh();
          hide(d.ids, false);
        }
      }
    },
    [decisions, hide, toast],
  );

  const release = useCallback(
    (id: number) => {
      const h = held.current.get(id);
      if (!h) return;
      held.current.delete(id);
      clearTimeout(h.timer);
      void send(h);
    },
    [send],
  );

  /** Takes a held decision back (the newest without an id): nothing was sent. False when it has gone already. */
  const undo = useCallback(
    (id?: number) => {
      const key = id ?? [...held.current.keys()].pop();
      const h = key === undefined ? undefined : held.current.get(key);
      if (!h || key === undefined) return false;
      held.current.delete(key);
      clearTimeout(h.timer);
      toast.dismiss(h.toast);
      hide(h.ids, false);
      toast.show({ tone: "info", text: `Undone: ${h.ids.length === 1 ? "nothing was sent" : `none of the ${h.ids.length} was sent`}.`, duration: 3_000 });
      return true;
    },
    [hide, toast],
  );

  /** Holds a decision: its rows leave the queue now, the request goes when the window ends. */
  const decide = useCallback(
    (d: Decision) => {
      const id = nextId.current++;
      hide(d.ids, true);
      const toastId = toast.show({
        tone: d.decision === "approve" ? "success" : "info",
        text: d.label,
        action: {
          label: "Undo",
          onClick: () => {
            // the toast can outlast the hold while the pointer rests on it
            if (!undo(id)) toast.show({ tone: "warning", text: "Too late to undo: it was sent already." });
          },
        },
        duration: HOLD_MS,
      });
      held.current.set(id, { ...d, toast: toastId, timer: setTimeout(() => release(id), HOLD_MS) });
    },
    [hide, release, toast, undo],
  );

  // leaving the page sends what is held at once; closing or reloading the tab too, as keepalive requests
  useEffect(() => {
    const all = held.current;
    const flush = (keepalive: boolean) => {
      for (const [id, h] of all) {
        all.delete(id);
        clearTimeout(h.timer);
        void send(h, { keepalive });
      }
    };
    const onPageHide = () => flush(true);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      flush(false);
    };
  }, [send]);

  return { hidden, decide, undo, heldCount: () => held.current.size };
}
