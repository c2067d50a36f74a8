import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import type { CookieOptions } from "@supabase/ssr";
import { SESSION_COOKIE } from "@/lib/auth/session";
import type { CookieJar } from "@/lib/auth/supabase";

/** Answers with `data` and sets the session cookie (httpOnly, SameSite=Lax, Secure over https). */
export function signedIn(
  req: NextRequest,
  data: unknown,
  cookie: { name: string; value: string; maxAge: number },
  status = 200,
): Response {
  const res = NextResponse.json(data, { status });
  res.cookies.set(cookie.name, cookie.value, {
    httpOnly: true,
    sameSite: "lax",
    secure: isHttps(req),
    path: "/",
    maxAge: cookie.maxAge,
  });
  return res;
}

export function signedOut(): NextResponse {
  const res = NextResponse.json({ signedOut: true });
  res.cookies.set(SESSION_COOKIE, "", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 0 });
  return res;
}

function isHttps(req: NextRequest): boolean {
  return req.nextUrl.protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
}

/**
 * A cookie jar for a Supabase client in a route handler: reads the request's cookies, and collects
 * what the client sets (session, refresh, sign-out, PKCE verifier) for `apply` to put on the response.
 */
export function supabaseCookieJar(req: NextRequest) {
  const pending: { name: string; value: string; options: CookieOptions }[] = [];
  const jar: CookieJar = {
    getAll: () => req.cookies.getAll(),
    set: (name, value, options) => {
      req.cookies.set(name, value);
      pending.push({ name, value, options });
    },
  };
  const apply = <R extends NextResponse>(res: R): R => {
    for (const c of pending) res.cookies.set(c.name, c.value, { ...c.options, secure: c.options.secure ?? isHttps(req) });
    return res;
  };
  return { jar, apply };
}
