"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ApiClientError, errorMessage } from "@/lib/console/api";
import { useLogin } from "@/lib/console/hooks/session";
import { validateEmail } from "./password-rules";

type Errors = Partial<Record<"email" | "password" | "form", string>>;

/** `next`: a same-site path, already checked by the page, to open after signing in. */
export function LoginForm({ next }: { next?: string | null }) {
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const login = useLogin();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const email = String(data.get("email") ?? "").trim();
    const password = String(data.get("password") ?? "");
    const found: Errors = { email: validateEmail(email) };
    if (!password) found.password = "Enter your password";
    if (Object.values(found).some(Boolean)) return setErrors(found);

    setErrors({});
    setPending(true);
    try {
      await login.mutateAsync({ email, password });
      window.location.assign(next ?? "/agents");
    } catch (err) {
      setPending(false);
      setErrors({ form: loginError(err) });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <Field label="Email" error={errors.email}>
        <Input name="email" type="email" autoComplete="username" autoFocus />
      </Field>
      <Field label="Password" error={errors.password}>
        <Input name="password" type="password" autoComplete="current-password" />
      </Field>
      <Button type="submit" className="w-full" loading={pending}>
        Sign in
      </Button>
    </form>
  );
}

function loginError(err: unknown): string {
  if (err instanceof ApiClientError) {
    if (err.status === 401) return "Wrong email or password";
    if (err.status === 429) return errorMessage(err).replace("Too many attempts", "Too many sign-in attempts");
  }
  return errorMessage(err);
}
