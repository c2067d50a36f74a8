import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AcceptInviteForm } from "@/components/auth/accept-invite-form";
import { AuthCard } from "@/components/auth/auth-card";
import { DatabaseNotReady } from "@/components/auth/database-not-ready";
import { Alert } from "@/components/ui/alert";
import { INVITE_HOURS, invitationEmail } from "@/lib/auth/service";
import { supabaseAuthConfig } from "@/lib/auth/supabase";
import { databaseNotReady } from "@/lib/db";

export const metadata: Metadata = { title: "Accept invitation · Memory HQ" };

export default async function AcceptInvitePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw.trim() : "";
  const supabase = supabaseAuthConfig();
  const notReady = !supabase && token ? await databaseNotReady() : null;
  if (notReady) return <DatabaseNotReady message={notReady} />;
  // a link that no longer works is said so before its holder chooses a password
  const email = !supabase && token ? await invitationEmail(token) : null;
  return (
    <AuthCard
      title="Join Memory HQ"
      description={
        email
          ? `You've been invited to the HQ console as ${email}. Choose a password to finish setting up your account.`
          : token && !supabase
            ? "This link was an invitation to the HQ console."
            : "You've been invited to the HQ console. Choose a password to finish setting up your account."
      }
      footer={
        <Link href="/login" className="font-medium text-indigo-600 hover:text-indigo-500">
          Already have an account? Sign in
        </Link>
      }
    >
      {supabase ? (
        <Alert tone="info" title="Sign in with your organisation's account">
          This HQ signs in through Supabase Auth: sign in with the email address the invitation was sent to, and it
          takes effect.
        </Alert>
      ) : !token ? (
        <Alert tone="error" title="This invitation link is incomplete">
          Open the full link you were sent, or ask an admin for a new invitation.
        </Alert>
      ) : email ? (
        <AcceptInviteForm token={token} email={email} />
      ) : (
        <Alert tone="error" title="This invitation link no longer works">
          It was used already, replaced by a newer link, or has expired (links last {INVITE_HOURS} hours) — or it was not copied whole. If you set your password
          with it, sign in; otherwise ask an HQ admin for a new link.
        </Alert>
      )}
    </AuthCard>
  );
}
