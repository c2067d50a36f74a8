"use client";

import { useId, useState, type FormEvent, type ReactNode } from "react";
import { errorMessage } from "@/lib/console/api";
import { Alert } from "./alert";
import { Button } from "./button";
import { Dialog, DialogFooter } from "./dialog";
import { Input } from "./input";

export interface ConfirmDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  tone?: "danger" | "primary";
  /**
   * For what cannot be undone: these words (a contact's name, a key's prefix) must be typed before
   * the action's button works, so a click, an Enter or a habit cannot do it by accident.
   */
  phrase?: string;
  /** may return a promise: the dialog shows a spinner, closes on success, shows the error on failure */
  onConfirm: () => unknown | Promise<unknown>;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  // the body is keyed by `open` through Dialog (mounted only while open), so its state starts fresh
  return (
    <Dialog open={props.open} onClose={props.onClose} title={props.title} size="sm">
      <ConfirmBody {...props} />
    </Dialog>
  );
}

function ConfirmBody({ onClose, description, confirmLabel = "Confirm", cancelLabel = "Cancel", tone = "danger", phrase, onConfirm }: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const allowed = phrase === undefined || typed.trim() === phrase.trim();

  async function confirm(e: FormEvent) {
    e.preventDefault();
    if (!allowed) return;
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  }

  return (
    <form onSubmit={confirm} noValidate>
      {description && <div className="text-sm text-slate-600">{description}</div>}
      {phrase !== undefined && (
        <>
          <label htmlFor={inputId} className="mt-4 block text-sm text-slate-700">
            Type <strong className="font-semibold text-slate-900 select-all">{phrase}</strong> to confirm
          </label>
          <Input id={inputId} className="mt-1.5 w-full" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} data-autofocus />
        </>
      )}
      {error && (
        <Alert tone="error" className="mt-4">
          {error}
        </Alert>
      )}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          {cancelLabel}
        </Button>
        <Button type="submit" variant={tone} disabled={!allowed} loading={pending} data-autofocus={phrase === undefined || undefined} data-dialog-primary>
          {confirmLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
