// POST /api/v1/auth/supabase/password — sign in through Supabase Auth with email and password
import { NextResponse } from "next/server";
import { loginBody } from "@/lib/auth/schemas";
import { signInWithPassword } from "@/lib/auth/supabase-signin";
import { clientAddress } from "@/lib/http/client-address";
import { supabaseCookieJar } from "@/lib/http/cookies";
import { errorResponse, route } from "@/lib/http/route";

export const POST = route({ permission: null, body: loginBody }, async ({ req, body }) => {
  const { jar, apply } = supabaseCookieJar(req);
  try {
    const user = await signInWithPassword(jar, body, clientAddress(req.headers));
    return apply(NextResponse.json({ user }));
  } catch (err) {
    // a refused user's sign-out clears the cookies it set
    return apply(errorResponse(err) as NextResponse);
  }
});
