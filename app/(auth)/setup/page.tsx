import type { Metadata } from "next";
import { connection } from "next/server";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { DatabaseNotReady } from "@/components/auth/database-not-ready";
import { SetupForm } from "@/components/auth/setup-form";
import { needsSetup } from "@/lib/auth/service";
import { supabaseAuthConfig } from "@/lib/auth/supabase";
import { databaseNotReady } from "@/lib/db";

export const metadata: Metadata = { title: "Set up · Memory HQ" };

export default async function SetupPage() {
  await connection();
  const notReady = await databaseNotReady();
  if (notReady) return <DatabaseNotReady message={notReady} />;
  if (supabaseAuthConfig() || !(await needsSetup())) redirect("/login");
  return (
    <AuthCard
      title="Create the first admin"
      description="Memory HQ has no users yet. This account will manage agents, keys, users and locked constants."
    >
      <SetupForm />
    </AuthCard>
  );
}
