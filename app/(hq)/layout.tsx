import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { DatabaseNotReady } from "@/components/auth/database-not-ready";
import { HqShell } from "@/components/shell/hq-shell";
import { safeNextPath } from "@/lib/auth/next-path";
import { needsSetup } from "@/lib/auth/service";
import { getSessionUser } from "@/lib/auth/session";
import { supabaseAuthConfig } from "@/lib/auth/supabase";
import { databaseNotReady } from "@/lib/db";
import { SEAM_HEADERS } from "@/server/seam.mjs";

// Every console page needs a signed-in HQ user; the API checks each call again on its own.
export default async function HqLayout({ children }: { children: React.ReactNode }) {
  // read first: the page is rendered per request, never at build time (which would open the database)
  const cookieStore = await cookies();
  const notReady = await databaseNotReady();
  if (notReady) return <DatabaseNotReady message={notReady} />;
  const user = await getSessionUser(cookieStore);
  if (!user || !user.userId) {
    // with Supabase Auth the first admin comes from app_metadata.mhq_role, not the setup page
    if (!supabaseAuthConfig() && (await needsSetup())) redirect("/setup");
    // back to the page that was asked for once signed in (the proxy passes its address along)
    const next = safeNextPath((await headers()).get(SEAM_HEADERS.path));
    redirect(next && next !== "/agents" ? `/login?next=${encodeURIComponent(next)}` : "/login");
  }
  return (
    <HqShell user={{ id: user.userId, name: user.name, email: user.email, role: user.role }}>{children}</HqShell>
  );
}
