import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInviteForm } from "@/components/auth/accept-invite-form";
import { AuthCard } from "@/components/auth/auth-card";
import { Alert } from "@/components/ui/alert";
import { supabaseAuthConfig } from "@/lib/auth/supabase";

export const metadata: Metadata = { title: "Accept invitation · Memory HQ" };

export default async function AcceptInvitePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw.trim() : "";
  return (
    <AuthCard
      title="Join Memory HQ"
      description="You've been invited to the HQ console. Choose a password to finish setting up your account."
      footer={
        <Link href="/login" className="font-medium text-indigo-600 hover:text-indigo-500">
          Already have an account? Sign in
        </Link>
      }
    >
      {supabaseAuthConfig() ? (
        <Alert tone="info" title="Sign in with your organisation's account">
          This HQ signs in through Supabase Auth: sign in with the email address the invitation was sent to, and it
          takes effect.
        </Alert>
      ) : token ? (
        <AcceptInviteForm token={token} />
      ) : (
        <Alert tone="error" title="This invitation link is incomplete">
          Open the full link you were sent, or ask an admin for a new invitation.
        </Alert>
      )}
    </AuthCard>
  );
}
