// GET /api/v1/auth/supabase/oauth?provider= — start an OAuth sign-in at Supabase (redirects)
import { NextResponse } from "next/server";
import { authContracts as c } from "@/lib/auth/contracts";
import { oauthUrl } from "@/lib/auth/supabase-signin";
import { supabaseCookieJar } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const GET = route(c.supabaseOAuth, async ({ req, query }) => {
  const { jar, apply } = supabaseCookieJar(req);
  return apply(NextResponse.redirect(await oauthUrl(jar, query.provider, req.nextUrl.origin), 303));
});
