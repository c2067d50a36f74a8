"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { useToast } from "@/components/ui/toast";
import { formErrors } from "@/lib/console/api";
import { useUpdateContact, type ContactChanges } from "@/lib/console/hooks/review";
import type { Contact } from "@/lib/console/review-types";
import { STAGE_LABEL, STAGES } from "./labels";

const FIELDS = ["name", "phone", "email", "summary", "stage", "sentiment"] as const;
type FormState = Record<(typeof FIELDS)[number], string>;

const formOf = (c: Contact): FormState => ({
  name: c.name ?? "",
  phone: c.phone ?? "",
  email: c.email ?? "",
  summary: c.summary,
  stage: c.stage === "opted_out" ? "new" : c.stage,
  sentiment: c.sentiment ?? "",
});

/** Only what the form changed is sent, so a change an agent made meanwhile to another field stays. */
export function contactChanges(before: Contact, form: FormState): ContactChanges {
  const was = formOf(before);
  const out: ContactChanges = {};
  for (const k of ["name", "phone", "email"] as const) {
    if (form[k].trim() !== was[k]) out[k] = form[k].trim() || null;
  }
  if (form.summary.trim() !== was.summary.trim()) out.summary = form.summary.trim();
  if (form.stage !== was.stage) out.stage = form.stage as ContactChanges["stage"];
  if (form.sentiment !== was.sentiment) out.sentiment = (form.sentiment || null) as ContactChanges["sentiment"];
  return out;
}

/** HQ admins correct a contact's profile: name, phone, email, summary, stage and sentiment. */
export function EditContactDialog({ open, onClose, contact }: { open: boolean; onClose: () => void; contact: Contact }) {
  return (
    <Dialog open={open} onClose={onClose} title="Edit profile" description="Facts are written separately, in the Facts card.">
      <EditContactForm onClose={onClose} contact={contact} />
    </Dialog>
  );
}

function EditContactForm({ onClose, contact }: { onClose: () => void; contact: Contact }) {
  const toast = useToast();
  const [form, setForm] = useState<FormState>(() => formOf(contact));
  const [errors, setErrors] = useState<Partial<Record<(typeof FIELDS)[number] | "form", string>>>({});
  const update = useUpdateContact(contact.id, {
    onSuccess: () => {
      toast.show({ tone: "success", text: "Profile saved." });
      onClose();
    },
    onError: (err) => setErrors(formErrors(err, FIELDS)),
  });
  const set = (k: keyof FormState) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.name.trim() && !form.phone.trim() && !form.email.trim()) {
      return setErrors({ form: "Keep at least one of name, phone or email: it is how agents recognise this person." });
    }
    const changes = contactChanges(contact, form);
    if (Object.keys(changes).length === 0) return onClose();
    setErrors({});
    update.mutate(changes);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <Field label="Name" error={errors.name}>
        <Input value={form.name} onChange={set("name")} maxLength={200} autoComplete="off" />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Phone" hint="Any format; stored as +1… (E.164)" error={errors.phone}>
          <Input value={form.phone} onChange={set("phone")} inputMode="tel" autoComplete="off" />
        </Field>
        <Field label="Email" error={errors.email}>
          <Input value={form.email} onChange={set("email")} type="email" autoComplete="off" />
        </Field>
      </div>
      <Field label="Summary" hint="What an agent should know first. Personal data such as card numbers or health details is refused." error={errors.summary}>
        <Textarea value={form.summary} onChange={set("summary")} maxLength={4000} rows={4} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Stage" error={errors.stage}>
          <Select value={form.stage} onChange={set("stage")} options={STAGES.map((s) => ({ value: s, label: STAGE_LABEL[s] ?? s }))} />
        </Field>
        <Field label="Sentiment" error={errors.sentiment}>
          <Select
            value={form.sentiment}
            onChange={set("sentiment")}
            options={[
              { value: "", label: "Not known" },
              { value: "positive", label: "Positive" },
              { value: "neutral", label: "Neutral" },
              { value: "negative", label: "Negative" },
            ]}
          />
        </Field>
      </div>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending} data-dialog-primary>
          Save profile
        </Button>
      </DialogFooter>
    </form>
  );
}
