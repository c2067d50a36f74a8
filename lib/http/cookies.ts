import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE } from "@/lib/auth/session";

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

export function signedOut(): Response {
  const res = NextResponse.json({ signedOut: true });
  res.cookies.set(SESSION_COOKIE, "", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 0 });
  return res;
}

function isHttps(req: NextRequest): boolean {
  return req.nextUrl.protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
}
