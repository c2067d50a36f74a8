// GET /api/v1/auth/supabase/callback — where magic links and OAuth sign-ins come back (redirects)
import { NextResponse } from "next/server";
import { authContracts as c } from "@/lib/auth/contracts";
import { completeCallback } from "@/lib/auth/supabase-signin";
import { supabaseCookieJar } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const GET = route(c.supabaseCallback, async ({ req, query }) => {
  const { jar, apply } = supabaseCookieJar(req);
  const next = query.error ? "/login?error=link" : await completeCallback(jar, query);
  return apply(NextResponse.redirect(new URL(next, req.nextUrl.origin), 303));
});
