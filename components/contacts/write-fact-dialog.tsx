"use client";

import { useId, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { useToast } from "@/components/ui/toast";
import { ApiClientError, formErrors } from "@/lib/console/api";
import { useFactKeys, usePutFact } from "@/lib/console/hooks/review";

/** A fact written directly must be this sure, as an approval must (the server holds the same rule). */
const MIN_CONFIDENCE_PERCENT = 70;

export interface FactTarget {
  contactId: string;
  clientId: string | null;
  /** set when changing a current fact: its key is fixed, and its value and confidence are where the form starts */
  key?: string;
  value?: string;
  confidence?: number;
  /** keys the contact has facts for, offered first */
  knownKeys: string[];
}

/**
 * HQ admins write a fact the way the memory manager does, under the same rules: personal data and
 * locked constants are refused, and a current fact with higher confidence is kept.
 */
export function WriteFactDialog({ target, onClose }: { target: FactTarget | null; onClose: () => void }) {
  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      title={target?.key ? `Change ${target.key}` : "Write a fact"}
      description="Written at once, as the memory manager writes an approved suggestion; the fact it replaces stays in the history."
    >
      {target && <WriteFactForm target={target} onClose={onClose} />}
    </Dialog>
  );
}

function WriteFactForm({ target, onClose }: { target: FactTarget; onClose: () => void }) {
  const toast = useToast();
  const listId = useId();
  const allowList = useFactKeys(target.clientId ?? undefined);
  const [key, setKey] = useState(target.key ?? "");
  const [value, setValue] = useState(target.value ?? "");
  // a change keeps the fact's confidence unless it is changed too; a new fact's is chosen, never assumed
  const [percent, setPercent] = useState(target.confidence === undefined ? "" : String(Math.round(target.confidence * 100)));
  const [errors, setErrors] = useState<Partial<Record<"key" | "value" | "confidence" | "form", string>>>({});
  const put = usePutFact(target.contactId, {
    onSuccess: ({ fact }) => {
      toast.show({ tone: "success", text: `Saved ${fact.key}.` });
      onClose();
    },
    onError: (err) => {
      // a surer current fact: said in the dialog's percent, not the API's fraction
      const current = err instanceof ApiClientError && err.status === 409 ? (err.details as { current?: { confidence?: number } } | undefined)?.current : undefined;
      if (current?.confidence !== undefined) {
        const sure = Math.round(current.confidence * 100);
        return setErrors({ confidence: `The current fact is ${sure}% sure: give at least ${sure} to replace it` });
      }
      // a fixed key has no field of its own: what is said about it goes above the form
      setErrors(formErrors(err, target.key ? ["value", "confidence"] : ["key", "value", "confidence"]));
    },
  });
  const offered = [...new Set([...target.knownKeys, ...(allowList.data ?? [])])].sort();

  function submit(e: FormEvent) {
    e.preventDefault();
    const found: typeof errors = {};
    const k = key.trim().toLowerCase();
    if (k.length > 100) found.key = "At most 100 characters";
    else if (!/^[a-z0-9]+([._-][a-z0-9]+)*$/.test(k)) found.key = "Use lowercase letters, digits, dots, dashes and underscores, such as preferred_time";
    if (!value.trim()) found.value = "Enter the value";
    const p = Number(percent);
    if (!percent.trim() || !Number.isInteger(p) || p < MIN_CONFIDENCE_PERCENT || p > 100) found.confidence = `A whole number from ${MIN_CONFIDENCE_PERCENT} to 100`;
    setErrors(found);
    if (Object.keys(found).length) return;
    put.mutate({ key: k, value: value.trim(), confidence: p / 100 });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      {!target.key && (
        <Field label="Key" hint={target.clientId ? "Keys on the client's allow-list are offered" : "Such as preferred_time or service.address"} error={errors.key}>
          <Input value={key} onChange={(e) => setKey(e.target.value)} list={listId} maxLength={100} autoComplete="off" className="font-mono" />
        </Field>
      )}
      <datalist id={listId}>
        {offered.map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
      <Field label="Value" error={errors.value}>
        <Textarea value={value} onChange={(e) => setValue(e.target.value)} maxLength={2000} rows={3} />
      </Field>
      <Field
        label="Confidence (%)"
        hint={`At least ${MIN_CONFIDENCE_PERCENT}. A current fact that is surer is kept unless this is at least as sure.`}
        error={errors.confidence}
      >
        <Input value={percent} onChange={(e) => setPercent(e.target.value)} type="number" min={MIN_CONFIDENCE_PERCENT} max={100} step={1} inputMode="numeric" className="max-w-28" />
      </Field>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={put.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={put.isPending} data-dialog-primary>
          Save fact
        </Button>
      </DialogFooter>
    </form>
  );
}
