import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { DatabaseNotReady } from "@/components/auth/database-not-ready";
import { LoginForm } from "@/components/auth/login-form";
import { SupabaseLoginForm } from "@/components/auth/supabase-login-form";
import { safeNextPath } from "@/lib/auth/next-path";
import { needsSetup } from "@/lib/auth/service";
import { getSessionUser } from "@/lib/auth/session";
import { supabaseAuthConfig, verifySupabaseSession } from "@/lib/auth/supabase";
import { databaseNotReady } from "@/lib/db";

export const metadata: Metadata = { title: "Sign in · Memory HQ" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const cookieStore = await cookies();
  const params = await searchParams;
  const next = safeNextPath(typeof params.next === "string" ? params.next : null);
  const notReady = await databaseNotReady();
  if (notReady) return <DatabaseNotReady message={notReady} />;
  const supabase = supabaseAuthConfig();
  if (supabase) {
    // signed in at Supabase: into the console when mapped, to the refusal page when not
    const verdict = await verifySupabaseSession(supabase, cookieStore);
    if (verdict?.ok) redirect(next ?? "/agents");
    if (verdict) redirect(`/signin-refused?reason=${verdict.reason}`);
    return (
      <AuthCard
        title="Sign in to Memory HQ"
        description="The console for your agents' long-term memory."
        footer="Sign in with your organisation's account. No access yet? Ask an HQ admin to invite your email address."
      >
        <SupabaseLoginForm providers={supabase.providers} linkError={params.error === "link"} />
      </AuthCard>
    );
  }
  if (await needsSetup()) redirect("/setup");
  if (await getSessionUser(cookieStore)) redirect(next ?? "/agents");
  return (
    <AuthCard
      title="Sign in to Memory HQ"
      description="The console for your agents' long-term memory."
      footer="New here? Ask an HQ admin for an invitation."
    >
      <LoginForm next={next} />
    </AuthCard>
  );
}
