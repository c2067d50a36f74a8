"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/client/api";
import type { Suggestion } from "@/lib/client/review-types";

interface DialogBase {
  suggestion: Suggestion | null;
  onClose: () => void;
}

/** Reject with a reason: the reason is stored on the suggestion and in the audit log. */
export function RejectDialog({ suggestion, onClose, onReject }: DialogBase & { onReject: (reason: string) => Promise<unknown> }) {
  return (
    <Dialog open={suggestion !== null} onClose={onClose} title="Reject suggestion" description={suggestion ? `${suggestion.key}: ${suggestion.value}` : undefined}>
      {suggestion && <RejectForm onClose={onClose} onReject={onReject} />}
    </Dialog>
  );
}

function RejectForm({ onClose, onReject }: { onClose: () => void; onReject: (reason: string) => Promise<unknown> }) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!reason.trim()) {
      setError("Say why, so the agent (and the next reviewer) can learn from it");
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onReject(reason.trim());
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Field label="Reason" required error={error}>
        <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={1000} placeholder="e.g. Not business-relevant" />
      </Field>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" loading={pending}>
          Reject
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Edit-and-approve: the fact gets the edited value; the proposal is kept as it was. */
export function EditApproveDialog({ suggestion, onClose, onApprove }: DialogBase & { onApprove: (value: string) => Promise<unknown> }) {
  return (
    <Dialog open={suggestion !== null} onClose={onClose} title="Edit and approve" description={suggestion ? `Key: ${suggestion.key}` : undefined}>
      {suggestion && <EditForm initial={suggestion.value} onClose={onClose} onApprove={onApprove} />}
    </Dialog>
  );
}

function EditForm({ initial, onClose, onApprove }: { initial: string; onClose: () => void; onApprove: (value: string) => Promise<unknown> }) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!value.trim()) {
      setError("A fact needs a value");
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onApprove(value.trim());
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Field label="Value" required hint="The rules run again on this value: no PII, no locked constants.">
        <Textarea value={value} onChange={(e) => setValue(e.target.value)} rows={3} maxLength={2000} />
      </Field>
      {error && (
        <Alert tone="error" className="mt-4">
          {error}
        </Alert>
      )}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" loading={pending}>
          Approve edited value
        </Button>
      </DialogFooter>
    </form>
  );
}
