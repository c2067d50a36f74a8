"use client";

import { useState, type ReactNode } from "react";
import { errorMessage } from "@/lib/console/api";
import { Alert } from "./alert";
import { Button } from "./button";
import { Dialog, DialogFooter } from "./dialog";

export interface ConfirmDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  tone?: "danger" | "primary";
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

function ConfirmBody({ onClose, description, confirmLabel = "Confirm", cancelLabel = "Cancel", tone = "danger", onConfirm }: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
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
    <>
      {description && <div className="text-sm text-slate-600">{description}</div>}
      {error && (
        <Alert tone="error" className="mt-4">
          {error}
        </Alert>
      )}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          {cancelLabel}
        </Button>
        <Button variant={tone} onClick={confirm} loading={pending} data-autofocus data-dialog-primary>
          {confirmLabel}
        </Button>
      </DialogFooter>
    </>
  );
}
