import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { HqShell } from "@/components/shell/hq-shell";
import { needsSetup } from "@/lib/auth/service";
import { getSessionUser } from "@/lib/auth/session";
import { supabaseAuthConfig } from "@/lib/auth/supabase";

// Every console page needs a signed-in HQ user; the API checks each call again on its own.
export default async function HqLayout({ children }: { children: React.ReactNode }) {
  const user = await getSessionUser(await cookies());
  if (!user || !user.userId) {
    // with Supabase Auth the first admin comes from app_metadata.mhq_role, not the setup page
    redirect(!supabaseAuthConfig() && (await needsSetup()) ? "/setup" : "/login");
  }
  return (
    <HqShell user={{ id: user.userId, name: user.name, email: user.email, role: user.role }}>{children}</HqShell>
  );
}
