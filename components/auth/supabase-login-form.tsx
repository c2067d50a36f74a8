"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ApiClientError, errorMessage } from "@/lib/console/api";
import { useSupabaseMagicLink, useSupabaseSignIn } from "@/lib/console/hooks/session";
import { validateEmail } from "./password-rules";

type Errors = Partial<Record<"email" | "password" | "form", string>>;

/**
 * Sign-in through Supabase Auth. Everything goes through HQ's own routes on the server, so this
 * form needs neither the Supabase URL nor its key; `providers` are the OAuth providers the server
 * offers (passed as props, read at run time).
 */
export function SupabaseLoginForm({ providers, linkError }: { providers: string[]; linkError?: boolean }) {
  const [errors, setErrors] = useState<Errors>(linkError ? { form: "That sign-in link is invalid or has expired. Request a new one." } : {});
  const [pending, setPending] = useState<"password" | "link" | null>(null);
  const [linkSent, setLinkSent] = useState(false);
  const signIn = useSupabaseSignIn();
  const magicLink = useSupabaseMagicLink();

  function read(form: HTMLFormElement) {
    const data = new FormData(form);
    return { email: String(data.get("email") ?? "").trim(), password: String(data.get("password") ?? "") };
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const { email, password } = read(e.currentTarget);
    const found: Errors = { email: validateEmail(email) };
    if (!password) found.password = "Enter your password";
    if (Object.values(found).some(Boolean)) return setErrors(found);
    setErrors({});
    setPending("password");
    try {
      await signIn.mutateAsync({ email, password });
      window.location.assign("/agents");
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 403) {
        const reason = (err.details as { reason?: string } | undefined)?.reason ?? "unmapped";
        window.location.assign(`/signin-refused?reason=${encodeURIComponent(reason)}`);
        return;
      }
      setPending(null);
      setErrors({ form: err instanceof ApiClientError && err.status === 401 ? "Wrong email or password" : errorMessage(err) });
    }
  }

  async function sendLink(form: HTMLFormElement | null) {
    if (!form) return;
    const { email } = read(form);
    const emailError = validateEmail(email);
    if (emailError) return setErrors({ email: emailError });
    setErrors({});
    setPending("link");
    try {
      await magicLink.mutateAsync({ email });
      setLinkSent(true);
    } catch (err) {
      setErrors({ form: errorMessage(err) });
    } finally {
      setPending(null);
    }
  }

  return (
    <div className="space-y-5">
      <form onSubmit={onSubmit} noValidate className="space-y-4" id="supabase-login">
        {errors.form && <Alert tone="error">{errors.form}</Alert>}
        {linkSent && <Alert tone="success">Check your inbox: if the address has an account, a sign-in link is on its way.</Alert>}
        <Field label="Email" error={errors.email}>
          <Input name="email" type="email" autoComplete="username" autoFocus />
        </Field>
        <Field label="Password" error={errors.password}>
          <Input name="password" type="password" autoComplete="current-password" />
        </Field>
        <Button type="submit" className="w-full" loading={pending === "password"}>
          Sign in
        </Button>
        <Button
          type="button"
          variant="secondary"
          className="w-full"
          loading={pending === "link"}
          onClick={(e) => sendLink(e.currentTarget.form)}
        >
          Email me a sign-in link
        </Button>
      </form>
      {providers.length > 0 && (
        <div className="space-y-2 border-t border-slate-200 pt-4">
          {providers.map((p) => (
            <a
              key={p}
              href={`/api/v1/auth/supabase/oauth?provider=${encodeURIComponent(p)}`}
              className="flex w-full items-center justify-center rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
            >
              Continue with {providerName(p)}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}

const PROVIDER_NAMES: Record<string, string> = {
  azure: "Microsoft",
  github: "GitHub",
  gitlab: "GitLab",
  linkedin_oidc: "LinkedIn",
  workos: "WorkOS",
};

function providerName(p: string): string {
  return PROVIDER_NAMES[p] ?? p.charAt(0).toUpperCase() + p.slice(1);
}
