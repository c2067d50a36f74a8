"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { ApiClientError } from "@/lib/console/api";
import { useCreateContact } from "@/lib/console/hooks/review";
import type { Client } from "@/lib/console/types";

/** HQ admins add a contact by hand (agents' manager does it through the API). */
export function NewContactDialog({ open, onClose, clients }: { open: boolean; onClose: () => void; clients: Client[] }) {
  return (
    <Dialog open={open} onClose={onClose} title="New contact" description="At least one of name, phone or email.">
      <NewContactForm onClose={onClose} clients={clients} />
    </Dialog>
  );
}

function NewContactForm({ onClose, clients }: { onClose: () => void; clients: Client[] }) {
  const router = useRouter();
  const [form, setForm] = useState({ name: "", phone: "", email: "", clientId: "" });
  const [error, setError] = useState<ApiClientError | Error | null>(null);
  const create = useCreateContact({
    onSuccess: ({ contact }) => {
      onClose();
      router.push(`/contacts/${contact.id}`);
    },
    onError: (err) => setError(err),
  });

  const fieldErrors = error instanceof ApiClientError ? error.fieldErrors : {};
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.name.trim() && !form.phone.trim() && !form.email.trim()) {
      setError(new Error("Give at least one of name, phone or email"));
      return;
    }
    setError(null);
    create.mutate({
      name: form.name.trim() || undefined,
      phone: form.phone.trim() || undefined,
      email: form.email.trim() || undefined,
      clientId: form.clientId || undefined,
    });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Name" error={fieldErrors.name}>
        <Input value={form.name} onChange={set("name")} maxLength={200} autoComplete="off" />
      </Field>
      <Field label="Phone" hint="Any format; stored as +1… (E.164)" error={fieldErrors.phone}>
        <Input value={form.phone} onChange={set("phone")} inputMode="tel" autoComplete="off" />
      </Field>
      <Field label="Email" error={fieldErrors.email}>
        <Input value={form.email} onChange={set("email")} type="email" autoComplete="off" />
      </Field>
      <Field label="Client">
        <Select value={form.clientId} onChange={set("clientId")} options={[{ value: "", label: "HQ (no client)" }, ...clients.map((c) => ({ value: c.id, label: c.name }))]} />
      </Field>
      {error && Object.keys(fieldErrors).length === 0 && <Alert tone="error">{error.message}</Alert>}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending}>
          Create contact
        </Button>
      </DialogFooter>
    </form>
  );
}
