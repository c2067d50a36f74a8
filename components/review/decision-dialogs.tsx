"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/console/api";
import type { Suggestion } from "@/lib/console/review-types";

interface DialogBase {
  suggestion: Suggestion | null;
  onClose: () => void;
}

/** Reject with a reason: the reason is stored on the suggestion and in the audit log. */
export function RejectDialog({ suggestion, onClose, onReject }: DialogBase & { onReject: (reason: string) => Promise<unknown> }) {
  return (
    <Dialog open={suggestion !== null} onClose={onClose} title="Reject suggestion" description={suggestion ? `${suggestion.key}: ${suggestion.value}` : undefined}>
      {suggestion && (
        <TextDecisionForm
          label="Reason"
          placeholder="e.g. Not business-relevant"
          maxLength={1000}
          emptyMessage="Say why, so the agent (and the next reviewer) can learn from it"
          submitLabel="Reject"
          danger
          onClose={onClose}
          onSubmit={onReject}
        />
      )}
    </Dialog>
  );
}

/** Edit-and-approve: the fact gets the edited value; the proposal is kept as it was. */
export function EditApproveDialog({ suggestion, onClose, onApprove }: DialogBase & { onApprove: (value: string) => Promise<unknown> }) {
  return (
    <Dialog open={suggestion !== null} onClose={onClose} title="Edit and approve" description={suggestion ? `Key: ${suggestion.key}` : undefined}>
      {suggestion && (
        <TextDecisionForm
          label="Value"
          initial={suggestion.value}
          hint="The rules run again on this value: no PII, no locked constants."
          maxLength={2000}
          emptyMessage="A fact needs a value"
          submitLabel="Approve edited value"
          onClose={onClose}
          onSubmit={onApprove}
        />
      )}
    </Dialog>
  );
}

interface TextDecisionFormProps {
  label: string;
  initial?: string;
  hint?: string;
  placeholder?: string;
  maxLength: number;
  /** shown when the text is empty: every decision here needs one */
  emptyMessage: string;
  submitLabel: string;
  danger?: boolean;
  onClose: () => void;
  onSubmit: (text: string) => Promise<unknown>;
}

/** One required text (a reason, an edited value), submitted once; the dialog closes on success. */
function TextDecisionForm({ label, initial = "", hint, placeholder, maxLength, emptyMessage, submitLabel, danger, onClose, onSubmit }: TextDecisionFormProps) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) {
      setError(emptyMessage);
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSubmit(text.trim());
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Field label={label} required hint={hint ?? "Ctrl+Enter (⌘+Enter on a Mac) submits · Esc cancels"} error={error}>
        <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} maxLength={maxLength} placeholder={placeholder} />
      </Field>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant={danger ? "danger" : undefined} loading={pending}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
