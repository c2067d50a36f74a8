import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { HqShell } from "@/components/shell/hq-shell";
import { needsSetup } from "@/lib/auth/service";
import { getSessionUser } from "@/lib/auth/session";

// Every console page needs a signed-in HQ user; the API checks each call again on its own.
export default async function HqLayout({ children }: { children: React.ReactNode }) {
  const user = await getSessionUser(await cookies());
  if (!user || !user.userId) {
    redirect((await needsSetup()) ? "/setup" : "/login");
  }
  return (
    <HqShell user={{ id: user.userId, name: user.name, email: user.email, role: user.role }}>{children}</HqShell>
  );
}
