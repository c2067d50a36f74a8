"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/console/api";
import { useFormDraft } from "@/lib/console/drafts";
import { useRecordOutcome } from "@/lib/console/hooks/memory";
import type { Memory } from "@/lib/console/memory-types";

/** Scores a decision: what happened, whether it worked, and what was learned. */
export function OutcomeDialog({ agentId, decision, onClose }: { agentId: string; decision: Memory | null; onClose: () => void }) {
  const record = useRecordOutcome(agentId);
  return (
    <Dialog open={decision !== null} onClose={onClose} title="Record the outcome" description={decision?.title} dismissible={!record.isPending}>
      {decision && <OutcomeForm decision={decision} onClose={onClose} record={record} />}
    </Dialog>
  );
}

function OutcomeForm({ decision, onClose, record }: { decision: Memory; onClose: () => void; record: ReturnType<typeof useRecordOutcome> }) {
  // kept as a draft until it is recorded or cancelled: an Esc or a reload loses nothing
  const form = useFormDraft(`outcome.${decision.id}`, { result: "", success: "true", notes: "" }, `the outcome of “${decision.title}”`);
  const { result, success, notes } = form.values;
  const [error, setError] = useState<string | null>(null);
  const [resultError, setResultError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!result.trim()) {
      setResultError("Say what happened, in a line");
      return;
    }
    setResultError(null);
    try {
      await record.mutateAsync({ id: decision.id, result: result.trim(), success: success === "true", ...(notes.trim() ? { notes } : {}) });
      form.clear();
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field label="Result" required error={resultError} hint="What happened, in a line (e.g. “Closed at $90,240, +4.2%”).">
        <Input value={result} onChange={(e) => form.change({ result: e.target.value })} maxLength={2000} />
      </Field>
      <Field label="Did the decision work?">
        <Select
          value={success}
          onChange={(e) => form.change({ success: e.target.value })}
          options={[
            { value: "true", label: "Yes — success" },
            { value: "false", label: "No — failure" },
          ]}
        />
      </Field>
      <Field label="Notes" hint="What this teaches for next time.">
        <Textarea value={notes} onChange={(e) => form.change({ notes: e.target.value })} rows={3} maxLength={4000} />
      </Field>
      {error && <Alert tone="error">{error}</Alert>}
      <DialogFooter>
        <Button
          variant="secondary"
          onClick={() => {
            form.clear();
            onClose();
          }}
          disabled={record.isPending}
        >
          Cancel
        </Button>
        <Button type="submit" loading={record.isPending} disabled={!result.trim()}>
          Record outcome
        </Button>
      </DialogFooter>
    </form>
  );
}
