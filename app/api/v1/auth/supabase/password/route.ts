// POST /api/v1/auth/supabase/password — sign in through Supabase Auth with email and password
import { NextResponse } from "next/server";
import { authContracts as c } from "@/lib/auth/contracts";
import { signInWithPassword } from "@/lib/auth/supabase-signin";
import { callerAddress } from "@/lib/http/caller-address";
import type { ServerResponse } from "@/lib/http/contract";
import { supabaseCookieJar } from "@/lib/http/cookies";
import { errorResponse, route } from "@/lib/http/route";

export const POST = route(c.supabasePassword, async ({ req, body }) => {
  const { jar, apply } = supabaseCookieJar(req);
  try {
    const answer: ServerResponse<typeof c.supabasePassword> = { user: await signInWithPassword(jar, body, callerAddress(req.headers)) };
    return apply(NextResponse.json(answer));
  } catch (err) {
    // a refused user's sign-out clears the cookies it set
    return apply(errorResponse(err) as NextResponse);
  }
});
