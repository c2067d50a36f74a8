"use client";

import { useState, type FormEvent } from "react";
import { validateEmail } from "@/components/auth/password-rules";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { formErrors } from "@/lib/console/api";
import { useInviteUser } from "@/lib/console/hooks/users";
import type { HqRole, InviteResult } from "@/lib/console/types";
import { ROLE_HINT, ROLE_OPTIONS } from "./user-labels";

/** Invites an HQ user and shows the one-time invitation link. */
export function InviteUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [result, setResult] = useState<InviteResult | null>(null);
  function close() {
    setResult(null);
    onClose();
  }
  return (
    <Dialog
      open={open}
      onClose={close}
      dismissible={!result}
      title={result ? "Send the invitation link" : "Invite a user"}
      description={result ? undefined : "They choose their own password when they open the link."}
    >
      {result ? <InviteLink result={result} onDone={close} /> : <InviteForm onClose={close} onInvited={setResult} />}
    </Dialog>
  );
}

function InviteForm({ onClose, onInvited }: { onClose: () => void; onInvited: (r: InviteResult) => void }) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<HqRole>("curator");
  const [errors, setErrors] = useState<Partial<Record<"email" | "name" | "role" | "form", string>>>({});

  const invite = useInviteUser({
    onSuccess: (result) => onInvited(result),
    onError: (err) =>
      setErrors(formErrors(err, ["email", "name", "role"])),
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const emailError = validateEmail(email, "their");
    setErrors(emailError ? { email: emailError } : {});
    if (emailError) return;
    invite.mutate({ email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <Field label="Email" error={errors.email} required>
        <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
      </Field>
      <Field label="Name" error={errors.name} hint="Optional; they can set it themselves">
        <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />
      </Field>
      <Field label="Role" error={errors.role} hint={ROLE_HINT[role]}>
        <Select value={role} onChange={(e) => setRole(e.target.value as HqRole)} options={ROLE_OPTIONS} />
      </Field>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={invite.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={invite.isPending}>
          Create invitation
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The link of an invitation issued again (New link on a pending user's row). */
export function InviteLinkDialog({ result, onClose }: { result: InviteResult | null; onClose: () => void }) {
  return (
    <Dialog open={result !== null} onClose={onClose} dismissible={false} title="Send the new invitation link">
      {result && <InviteLink result={result} onDone={onClose} />}
    </Dialog>
  );
}

function InviteLink({ result, onDone }: { result: InviteResult; onDone: () => void }) {
  const link = `${window.location.origin}${result.invitePath}`;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        Send this link to <span className="font-medium text-slate-900">{result.user.email}</span>. It works once and expires in{" "}
        {result.expiresInHours} hours.
      </p>
      <Alert tone="warning" title="This link won't be shown again">
        If it is lost, issue a new link from their row on this page (New link): this one then stops working.
      </Alert>
      <div className="flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50 p-2 pl-3">
        <code data-testid="invite-link" className="min-w-0 flex-1 font-mono text-xs break-all text-slate-900 select-all">
          {link}
        </code>
        <CopyButton value={link} label="Copy link" data-autofocus />
      </div>
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </div>
  );
}
