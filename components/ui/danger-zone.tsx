"use client";

import { useId, useState, type FormEvent, type ReactNode } from "react";
import { errorMessage } from "@/lib/console/api";
import { Alert } from "./alert";
import { Button } from "./button";
import { Dialog, DialogFooter } from "./dialog";
import { Input } from "./input";

/**
 * Where an irreversible action lives: at the foot of its page, apart from everyday work, never the
 * page's primary action. The button only opens `TypedConfirmDialog`. Reversible actions (archive,
 * disable) act at once with Undo in their toast instead.
 */
export function DangerZone({ title = "Danger zone", children }: { title?: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-red-200 bg-white" data-testid="danger-zone">
      <h2 className="border-b border-red-100 px-5 py-3 text-sm font-semibold text-red-800">{title}</h2>
      <div className="divide-y divide-red-100">{children}</div>
    </section>
  );
}

/** One irreversible action in a danger zone: what it does, and its button. */
export function DangerAction({ title, description, action }: { title: string; description: ReactNode; action: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4 px-5 py-4">
      <div className="min-w-0 max-w-2xl">
        <p className="text-sm font-medium text-slate-900">{title}</p>
        <div className="mt-0.5 text-sm text-slate-600">{description}</div>
      </div>
      {action}
    </div>
  );
}

/**
 * Confirms an irreversible action by having the words `phrase` typed: a click, an Enter or a habit
 * cannot do it by accident. The action's button stays disabled until the phrase matches.
 */
export function TypedConfirmDialog({
  open,
  onClose,
  title,
  description,
  phrase,
  confirmLabel,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
  /** what must be typed, e.g. the contact's name */
  phrase: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} size="sm">
      <TypedConfirmBody onClose={onClose} description={description} phrase={phrase} confirmLabel={confirmLabel} onConfirm={onConfirm} />
    </Dialog>
  );
}

function TypedConfirmBody({
  onClose,
  description,
  phrase,
  confirmLabel,
  onConfirm,
}: {
  onClose: () => void;
  description: ReactNode;
  phrase: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
}) {
  const [typed, setTyped] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const matches = typed.trim() === phrase.trim();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!matches) return;
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
    <form onSubmit={submit} noValidate>
      <div className="text-sm text-slate-600">{description}</div>
      <label htmlFor={id} className="mt-4 block text-sm text-slate-700">
        Type <strong className="font-semibold text-slate-900 select-all">{phrase}</strong> to confirm
      </label>
      <Input id={id} className="mt-1.5 w-full" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} data-autofocus />
      {error && (
        <Alert tone="error" className="mt-4">
          {error}
        </Alert>
      )}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={!matches} loading={pending}>
          {confirmLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
