// POST /api/v1/auth/supabase/magic-link — email a sign-in link through Supabase Auth
import { NextResponse } from "next/server";
import { magicLinkBody } from "@/lib/auth/schemas";
import { sendMagicLink } from "@/lib/auth/supabase-signin";
import { clientAddress } from "@/lib/http/client-address";
import { supabaseCookieJar } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const POST = route({ permission: null, body: magicLinkBody }, async ({ req, body }) => {
  const { jar, apply } = supabaseCookieJar(req);
  return apply(NextResponse.json(await sendMagicLink(jar, body, req.nextUrl.origin, clientAddress(req.headers))));
});
