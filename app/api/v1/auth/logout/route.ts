// POST /api/v1/auth/logout — end the current session (and the Supabase session, when HQ uses it)
import { authContracts as c } from "@/lib/auth/contracts";
import { endSession, SESSION_COOKIE } from "@/lib/auth/session";
import { signOutSupabase } from "@/lib/auth/supabase-signin";
import { signedOut, supabaseCookieJar } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const POST = route(c.logout, async ({ req }) => {
  await endSession(req.cookies.get(SESSION_COOKIE)?.value);
  const { jar, apply } = supabaseCookieJar(req);
  await signOutSupabase(jar);
  return apply(signedOut());
});
