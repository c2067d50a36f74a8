import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInviteForm } from "@/components/auth/accept-invite-form";
import { AuthCard } from "@/components/auth/auth-card";
import { Alert } from "@/components/ui/alert";

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
      {token ? (
        <AcceptInviteForm token={token} />
      ) : (
        <Alert tone="error" title="This invitation link is incomplete">
          Open the full link you were sent, or ask an admin for a new invitation.
        </Alert>
      )}
    </AuthCard>
  );
}
