import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { SignOutAgain } from "@/components/auth/sign-out-again";
import { Alert } from "@/components/ui/alert";
import { refusalMessage } from "@/lib/auth/supabase-signin";

export const metadata: Metadata = { title: "No access · Memory HQ" };

const TITLES = {
  unmapped: "This account has no access to Memory HQ",
  disabled: "Your HQ account is disabled",
  unconfirmed: "Confirm your email address first",
} as const;

/** Where a user whom Supabase signed in, but HQ does not know or has disabled, is told why. */
export default async function SignInRefusedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).reason;
  const reason = raw === "disabled" || raw === "unconfirmed" ? raw : "unmapped";
  return (
    <AuthCard title={TITLES[reason]} description="Memory HQ is open to the HQ staff its admins have given access.">
      <div className="space-y-4">
        <Alert tone="error">{refusalMessage(reason)}</Alert>
        <SignOutAgain />
      </div>
    </AuthCard>
  );
}
