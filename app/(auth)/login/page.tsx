import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { LoginForm } from "@/components/auth/login-form";
import { needsSetup } from "@/lib/auth/service";
import { getSessionUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in · Memory HQ" };

export default async function LoginPage() {
  const cookieStore = await cookies();
  if (await needsSetup()) redirect("/setup");
  if (await getSessionUser(cookieStore)) redirect("/agents");
  return (
    <AuthCard
      title="Sign in to Memory HQ"
      description="The console for your agents' long-term memory."
      footer="New here? Ask an HQ admin for an invitation."
    >
      <LoginForm />
    </AuthCard>
  );
}
