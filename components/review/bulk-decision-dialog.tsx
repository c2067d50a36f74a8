"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/console/api";
import type { Suggestion } from "@/lib/console/review-types";

export type BulkDecision = "approve" | "reject";

/**
 * Confirms a bulk decision by listing exactly what will happen to each selected suggestion (which
 * fact it writes or replaces, or that it is rejected); rejecting needs one reason for all.
 */
export function BulkDecisionDialog({
  decision,
  suggestions,
  onClose,
  onConfirm,
}: {
  decision: BulkDecision | null;
  suggestions: Suggestion[];
  onClose: () => void;
  onConfirm: (decision: BulkDecision, reason?: string) => Promise<unknown>;
}) {
  const n = suggestions.length;
  return (
    <Dialog
      open={decision !== null && n > 0}
      onClose={onClose}
      size="lg"
      title={decision === "approve" ? `Approve ${n === 1 ? "1 suggestion" : `${n} suggestions`}?` : `Reject ${n === 1 ? "1 suggestion" : `${n} suggestions`}?`}
      description={
        decision === "approve"
          ? "Each is checked against the rules again; any that now breaks one, or loses to a fact with higher confidence, is reported instead of approved."
          : "They leave the queue with the reason below; no fact changes."
      }
    >
      {decision && <BulkBody decision={decision} suggestions={suggestions} onClose={onClose} onConfirm={onConfirm} />}
    </Dialog>
  );
}

function BulkBody({
  decision,
  suggestions,
  onClose,
  onConfirm,
}: {
  decision: BulkDecision;
  suggestions: Suggestion[];
  onClose: () => void;
  onConfirm: (decision: BulkDecision, reason?: string) => Promise<unknown>;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (decision === "reject" && !reason.trim()) {
      setError("Give a reason: it is kept with each rejected suggestion");
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onConfirm(decision, decision === "reject" ? reason.trim() : undefined);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200 text-sm" aria-label="What will happen" data-testid="bulk-plan">
        {suggestions.map((s) => (
          <li key={s.id} className="px-3 py-2">
            <span className="font-medium text-slate-900">{s.contact.name ?? "Opted-out contact"}</span>
            <span className="text-slate-500"> · </span>
            <code className="font-mono text-xs text-slate-800">{s.key}</code>
            <span className="block text-slate-700">
              {decision === "reject"
                ? `Reject “${s.value}”`
                : s.currentFact
                  ? `Replace “${s.currentFact.value}” with “${s.value}”`
                  : `Set to “${s.value}”`}
              {decision === "approve" && s.verdict === "refuse" && <span className="ml-1 text-red-700">(breaks a rule: will be refused)</span>}
            </span>
          </li>
        ))}
      </ul>
      {decision === "reject" && (
        <Field label="Reason" required error={error} hint="Ctrl+Enter (⌘+Enter on a Mac) submits · Esc cancels" className="mt-4">
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={2} maxLength={1000} />
        </Field>
      )}
      {decision === "approve" && error && (
        <Alert tone="error" className="mt-4">
          {error}
        </Alert>
      )}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant={decision === "reject" ? "danger" : "primary"} loading={pending} data-autofocus={decision === "approve" || undefined}>
          {decision === "approve" ? `Approve ${suggestions.length}` : `Reject ${suggestions.length}`}
        </Button>
      </DialogFooter>
    </form>
  );
}
