// POST /api/v1/auth/supabase/magic-link — email a sign-in link through Supabase Auth
import { NextResponse } from "next/server";
import { authContracts as c } from "@/lib/auth/contracts";
import { sendMagicLink } from "@/lib/auth/supabase-signin";
import { callerAddress } from "@/lib/http/caller-address";
import type { ServerResponse } from "@/lib/http/contract";
import { supabaseCookieJar } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const POST = route(c.supabaseMagicLink, async ({ req, body }) => {
  const { jar, apply } = supabaseCookieJar(req);
  const answer: ServerResponse<typeof c.supabaseMagicLink> = await sendMagicLink(jar, body, req.nextUrl.origin, callerAddress(req.headers));
  return apply(NextResponse.json(answer));
});
