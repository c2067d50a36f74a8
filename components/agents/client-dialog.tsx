"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { formErrors } from "@/lib/console/api";
import { useSaveClient } from "@/lib/console/hooks/agents";
import type { Client } from "@/lib/console/types";

/** Creates a client, or edits one when `client` is given. */
export function ClientDialog({ open, onClose, client }: { open: boolean; onClose: () => void; client?: Client }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={client ? `Edit ${client.name}` : "New client"}
      description="Trigger terms are words that, in an agent's message, make retrieval look in this client's memory."
    >
      <ClientForm onClose={onClose} client={client} />
    </Dialog>
  );
}

export function parseTerms(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}

function ClientForm({ onClose, client }: { onClose: () => void; client?: Client }) {
  const [name, setName] = useState(client?.name ?? "");
  const [terms, setTerms] = useState(client?.triggerTerms.join(", ") ?? "");
  const [errors, setErrors] = useState<Partial<Record<"name" | "triggerTerms" | "form", string>>>({});

  const save = useSaveClient(client, {
    onSuccess: onClose,
    onError: (err) =>
      setErrors(formErrors(err, ["name", "triggerTerms"])),
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const triggerTerms = parseTerms(terms);
    const found: typeof errors = {};
    if (!name.trim()) found.name = "Give the client a name";
    const short = triggerTerms.find((t) => t.length < 2 || t.length > 60);
    if (short) found.triggerTerms = `"${short}": each term needs 2 to 60 characters`;
    else if (triggerTerms.length > 100) found.triggerTerms = "At most 100 trigger terms";
    setErrors(found);
    if (Object.keys(found).length) return;
    save.mutate({ name: name.trim(), triggerTerms });
  }

  const preview = parseTerms(terms);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <Field label="Name" error={errors.name} required>
        <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} placeholder="e.g. Sunrise Plumbing" />
      </Field>
      <Field label="Trigger terms" error={errors.triggerTerms} hint="Separate terms with commas, e.g. Sunrise, water heater, drain cleaning">
        <Input value={terms} onChange={(e) => setTerms(e.target.value)} />
      </Field>
      {preview.length > 0 && (
        <div className="flex flex-wrap gap-1.5" aria-label="Trigger terms preview">
          {preview.map((t) => (
            <span key={t} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
              {t}
            </span>
          ))}
        </div>
      )}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          {client ? "Save changes" : "Create client"}
        </Button>
      </DialogFooter>
    </form>
  );
}
