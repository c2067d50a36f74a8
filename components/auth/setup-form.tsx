"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ApiClientError, formErrors } from "@/lib/console/api";
import { useSetup } from "@/lib/console/hooks/session";
import { MIN_PASSWORD_LENGTH, validateEmail, validateNewPassword } from "./password-rules";

type Errors = Partial<Record<"name" | "email" | "password" | "confirm" | "form", string>>;

/** Creates the first HQ admin; shown only while HQ has no user at all. */
export function SetupForm() {
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const setup = useSetup();
  const [alreadySetUp, setAlreadySetUp] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const name = String(data.get("name") ?? "").trim();
    const email = String(data.get("email") ?? "").trim();
    const password = String(data.get("password") ?? "");
    const confirm = String(data.get("confirm") ?? "");
    const found: Errors = { email: validateEmail(email), ...validateNewPassword(password, confirm) };
    if (!name) found.name = "Enter your name";
    if (Object.values(found).some(Boolean)) return setErrors(found);

    setErrors({});
    setPending(true);
    try {
      await setup.mutateAsync({ name, email, password });
      // the first admin starts on the Dashboard, whose first-run checklist walks from a client to the first agent call
      window.location.assign("/dashboard");
    } catch (err) {
      setPending(false);
      if (err instanceof ApiClientError && err.status === 409) setAlreadySetUp(true);
      setErrors(formErrors(err, ["name", "email", "password", "confirm"]));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && (
        <Alert tone="error">
          {errors.form}
          {alreadySetUp && (
            <>
              {" "}
              <a href="/login" className="font-medium underline">
                Go to sign in
              </a>
            </>
          )}
        </Alert>
      )}
      <Field label="Your name" error={errors.name}>
        <Input name="name" autoComplete="name" maxLength={100} />
      </Field>
      <Field label="Email" error={errors.email}>
        <Input name="email" type="email" autoComplete="email" />
      </Field>
      <Field label="Password" error={errors.password} hint={`At least ${MIN_PASSWORD_LENGTH} characters`}>
        <Input name="password" type="password" autoComplete="new-password" />
      </Field>
      <Field label="Confirm password" error={errors.confirm}>
        <Input name="confirm" type="password" autoComplete="new-password" />
      </Field>
      <Button type="submit" className="w-full" loading={pending}>
        Create admin account
      </Button>
    </form>
  );
}
