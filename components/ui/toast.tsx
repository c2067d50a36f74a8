"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { cn } from "@/lib/console/cn";
import { errorMessage } from "@/lib/console/api";
import type { AlertTone } from "./alert";

export interface ToastInput {
  tone?: AlertTone;
  text: ReactNode;
  /** one action beside the text, e.g. Undo; the toast closes once it is taken */
  action?: { label: string; onClick: () => void };
  /** how long it stays, in ms (default 6 s; errors 10 s); 0 keeps it until dismissed */
  duration?: number;
}

interface Toast extends ToastInput {
  id: number;
}

interface ToastApi {
  show: (toast: ToastInput) => number;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);
const MAX_SHOWN = 3;

const TONES: Record<AlertTone, string> = {
  error: "border-red-200 bg-red-50 text-red-800",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  info: "border-slate-200 bg-white text-slate-800",
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
};

/**
 * Short notices at the bottom of the screen, where they stay in view however far down a list the
 * reader is: what just happened, and — for what can be taken back — an Undo. Read out by screen
 * readers; the newest three are shown.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback((toast: ToastInput) => {
    const id = next.current++;
    setToasts((all) => [...all, { ...toast, id }].slice(-MAX_SHOWN));
    return id;
  }, []);
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div
        role="region"
        aria-label="Notifications"
        className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-stretch gap-2 sm:inset-x-auto sm:right-6 sm:w-[28rem]"
      >
        {toasts.map((t) => (
          <ToastView key={t.id} toast={t} onDismiss={() => dismiss(t.id)} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const tone = toast.tone ?? "info";
  const duration = toast.duration ?? (tone === "error" ? 10_000 : 6_000);
  // the timer pauses while the pointer or focus is on the toast, so its action can be reached
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!duration || held) return;
    const timer = setTimeout(onDismiss, duration);
    return () => clearTimeout(timer);
  }, [duration, held, onDismiss]);
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid="toast"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
      className={cn("pointer-events-auto flex items-start justify-between gap-3 rounded-md border px-3.5 py-2.5 text-sm shadow-lg", TONES[tone])}
    >
      <span className="min-w-0">{toast.text}</span>
      <span className="flex shrink-0 items-center gap-3">
        {toast.action && (
          <button
            type="button"
            className="font-semibold underline underline-offset-2 hover:no-underline"
            onClick={() => {
              toast.action!.onClick();
              onDismiss();
            }}
          >
            {toast.action.label}
          </button>
        )}
        <button type="button" className="text-xs font-medium opacity-70 hover:opacity-100" onClick={onDismiss} aria-label="Dismiss">
          ✕
        </button>
      </span>
    </div>
  );
}

/** `const toast = useToast(); toast.show({ tone: "success", text: "Archived.", action: { label: "Undo", onClick } })`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast needs the ToastProvider (app/providers.tsx)");
  return api;
}

/**
 * A reversible action (archive, resolve, disable) done at once, with Undo in its toast: Undo runs the
 * inverse action, which is a change of its own (the audit log records both). Irreversible actions
 * never come through here: they ask for a typed confirmation first (`DangerZone`).
 */
export function useUndoable() {
  const toast = useToast();
  return useCallback(
    async <T,>({
      act,
      done,
      undo,
      undone,
      failed,
    }: {
      act: () => Promise<T>;
      /** what the toast says was done */
      done: (result: T) => string;
      undo: (result: T) => Promise<unknown>;
      /** what the toast says once Undo worked */
      undone: string;
      /** the start of the error when the action fails, e.g. “Couldn't archive it” */
      failed: string;
    }) => {
      let result: T;
      try {
        result = await act();
      } catch (err) {
        toast.show({ tone: "error", text: `${failed}: ${errorMessage(err)}` });
        return;
      }
      toast.show({
        tone: "success",
        text: done(result),
        action: {
          label: "Undo",
          onClick: () =>
            void undo(result).then(
              () => toast.show({ tone: "info", text: undone, duration: 3_000 }),
              (err: unknown) => toast.show({ tone: "error", text: `Couldn't undo: ${errorMessage(err)}` }),
            ),
        },
        duration: 10_000,
      });
    },
    [toast],
  );
}
