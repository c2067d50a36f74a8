import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { LoginForm } from "@/components/auth/login-form";
import { safeNextPath } from "@/lib/auth/next-path";
import { needsSetup } from "@/lib/auth/service";
import { getSessionUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in · Memory HQ" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const cookieStore = await cookies();
  const raw = (await searchParams).next;
  const next = safeNextPath(typeof raw === "string" ? raw : null);
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
