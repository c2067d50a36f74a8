"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ApiClientError, formErrors } from "@/lib/console/api";
import { useAcceptInvite } from "@/lib/console/hooks/session";
import { MIN_PASSWORD_LENGTH, validateNewPassword } from "./password-rules";

type Errors = Partial<Record<"name" | "password" | "confirm" | "form", string>>;

export function AcceptInviteForm({ token, email }: { token: string; email: string }) {
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const acceptInvite = useAcceptInvite();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const name = String(data.get("name") ?? "").trim();
    const password = String(data.get("password") ?? "");
    const confirm = String(data.get("confirm") ?? "");
    const found: Errors = validateNewPassword(password, confirm);
    if (Object.values(found).some(Boolean)) return setErrors(found);

    setErrors({});
    setPending(true);
    try {
      await acceptInvite.mutateAsync({ token, password, ...(name ? { name } : {}) });
      window.location.assign("/agents");
    } catch (err) {
      setPending(false);
      if (err instanceof ApiClientError && err.status === 422 && err.fieldErrors.token) {
        return setErrors({ form: "This invitation link is damaged. Ask an admin to send a new one." });
      }
      setErrors(formErrors(err, ["name", "password", "confirm"]));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      {/* the account's address, for a password manager to store the new password under */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Field label="Your name" error={errors.name} hint="Optional; shown to other HQ users">
        <Input name="name" autoComplete="name" maxLength={100} />
      </Field>
      <Field label="Choose a password" error={errors.password} hint={`At least ${MIN_PASSWORD_LENGTH} characters`}>
        <Input name="password" type="password" autoComplete="new-password" />
      </Field>
      <Field label="Confirm password" error={errors.confirm}>
        <Input name="confirm" type="password" autoComplete="new-password" />
      </Field>
      <Button type="submit" className="w-full" loading={pending}>
        Accept invitation
      </Button>
    </form>
  );
}
