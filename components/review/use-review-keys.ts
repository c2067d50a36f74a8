"use client";

import { useEffect, useRef } from "react";

export interface ReviewKeyHandlers {
  /** j and k: the next or previous row; with Shift, the rows passed are ticked too */
  move: (step: 1 | -1, extend: boolean) => void;
  /** x ticks or unticks the current row; Shift+x ticks every row from the last ticked one */
  tick: (extend: boolean) => void;
  /** a approves the ticked rows, or the current one */
  approve: () => void;
  /** r rejects the ticked rows, or the current one (a reason is asked for) */
  reject: () => void;
  /** e edits the current row's value, then approves it */
  edit: () => void;
  /** z takes back the last decision while it is still held */
  undo: () => void;
  /** Esc unticks everything */
  clear: () => void;
}

/** Inputs that take no typed text: a key pressed on one (a row's checkbox, after a click) is the queue's. */
const UNTYPED_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "file", "color", "range"]);

export const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  (el.isContentEditable ||
    (el instanceof HTMLInputElement ? !UNTYPED_INPUTS.has(el.type) : ["TEXTAREA", "SELECT"].includes(el.tagName)) ||
    el.closest("dialog, [role=dialog]") !== null);

/**
 * The review queue's keys, bound once on the window and reading the newest handlers; they rest while
 * a box is being typed in, a dialog is open (`paused`), or a modifier other than Shift is held.
 */
export function useReviewKeys(handlers: ReviewKeyHandlers, paused: boolean) {
  const latest = useRef({ handlers, paused });
  latest.current = { handlers, paused };

  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      const { handlers: h, paused: p } = latest.current;
      // any dialog open (the phone's menu included) has the keys: Esc there closes it, not the selection
      if (p || e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target) || document.querySelector("dialog[open]")) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      const act: Record<string, () => void> = {
        j: () => h.move(1, e.shiftKey),
        k: () => h.move(-1, e.shiftKey),
        x: () => h.tick(e.shiftKey),
        a: () => h.approve(),
        r: () => h.reject(),
        e: () => h.edit(),
        z: () => h.undo(),
        Escape: () => h.clear(),
      };
      const run = act[key];
      if (!run) return;
      e.preventDefault();
      run();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
