"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { cn } from "@/lib/console/cn";

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  size?: "sm" | "md" | "lg";
  /** false while something must not be interrupted (e.g. a save in flight) */
  dismissible?: boolean;
  children: ReactNode;
  className?: string;
}

const SIZES = { sm: "max-w-md", md: "max-w-lg", lg: "max-w-2xl" };

const FOCUSABLE =
  "[data-autofocus], input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href]";

/**
 * A modal on the native <dialog> element: the page behind is inert, Esc and a click on the
 * backdrop close it, focus moves into it on open and back to the opener on close. Its content is
 * mounted only while open, so forms inside start fresh each time.
 */
export function Dialog({ open, onClose, title, description, size = "md", dismissible = true, children, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  const dismissibleRef = useRef(dismissible);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    onCloseRef.current = onClose;
    dismissibleRef.current = dismissible;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    const body = dialog.querySelector<HTMLElement>("[data-dialog-body]");
    const target = body?.querySelector<HTMLElement>(FOCUSABLE) ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(e) => {
        // Esc: let React state decide, so `open` stays the single source of truth
        e.preventDefault();
        if (dismissibleRef.current) onCloseRef.current();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget && dismissibleRef.current) onCloseRef.current();
      }}
      onKeyDown={(e) => {
        // Ctrl/⌘+Enter submits from anywhere in the dialog, a textarea included; Esc cancels (onCancel)
        if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
        const dialog = e.currentTarget;
        const form = dialog.querySelector("form");
        const primary = dialog.querySelector<HTMLButtonElement>("[data-dialog-primary]:not([disabled])");
        if (!form && !primary) return;
        e.preventDefault();
        if (form) form.requestSubmit();
        else primary!.click();
      }}
      className={cn(
        "m-auto w-[calc(100%-2rem)] rounded-xl bg-white p-0 text-slate-900 shadow-2xl ring-1 ring-slate-900/10",
        "backdrop:bg-slate-900/40 backdrop:backdrop-blur-[1px]",
        SIZES[size],
        className,
      )}
    >
      <div className="px-6 pt-5 pb-6">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="mt-1 text-sm text-slate-500">
                {description}
              </p>
            )}
          </div>
          {dismissible && (
            <button
              type="button"
              onClick={() => onCloseRef.current()}
              className="-mt-1 -mr-2 rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
              aria-label="Close"
            >
              <svg viewBox="0 0 20 20" fill="currentColor" className="size-5" aria-hidden="true">
                <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
              </svg>
            </button>
          )}
        </div>
        <div data-dialog-body className="mt-4">
          {children}
        </div>
      </div>
    </dialog>
  );
}

/** The button row at the bottom of a dialog (inside its form, if it has one). */
export function DialogFooter({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn("mt-6 flex flex-wrap items-center justify-end gap-2", className)}>{children}</div>;
}
