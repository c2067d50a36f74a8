// In front of every request but static files:
// - /api: an unknown path answers 404 and an unsupported method 405 in the API's JSON error shape
//   (Next.js would answer an HTML page or an empty body), counted in the request metrics; everything
//   else goes on to its handler.
// - /.well-known/… and OAuth's default endpoints (/authorize, /token, /register): 404 in the same JSON
//   shape (the server offers no OAuth), never the sign-in page.
// - console pages: the requested address is passed to the server layouts (`SEAM_HEADERS.path`), so a visitor
//   who must sign in first is brought back to the page they asked for. Authentication itself stays
//   in the layouts and the API.
// - When HQ signs in through Supabase Auth (NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_ANON_KEY
//   set), the session is refreshed here, where cookies can be written: an expiring access token is
//   exchanged before pages and route handlers verify the user with Supabase themselves. Without
//   Supabase, and for API calls with a bearer key, that part does nothing.
import type { CookieOptions } from "@supabase/ssr";
import { NextResponse, type NextRequest } from "next/server";
import { hasSupabaseSession, supabaseAuthConfig, supabaseClient } from "@/lib/auth/supabase-client";
import { oauthProbeRequest, routeTemplate, unservedApiRequest } from "@/lib/http/api-routes";
import { recordHttpRequest, UNMATCHED_ROUTE } from "@/lib/metrics/http";
import { SEAM_HEADERS } from "@/server/seam.mjs";

type CookieChange = { name: string; value: string; options: CookieOptions };

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const isApi = pathname.startsWith("/api/");
  const oauthProbe = oauthProbeRequest(pathname);
  if (oauthProbe) {
    recordHttpRequest(UNMATCHED_ROUTE, request.method, oauthProbe.status, 0);
    return oauthProbe;
  }
  if (isApi) {
    const unserved = unservedApiRequest(request.method, pathname);
    if (unserved) {
      // a path no route serves is counted under one fixed label, never its own
      recordHttpRequest(routeTemplate(pathname) ?? UNMATCHED_ROUTE, request.method, unserved.status, 0);
      return unserved;
    }
  }
  const changed = await refreshSupabaseSession(request);
  const headers = new Headers(request.headers);
  if (!isApi) headers.set(SEAM_HEADERS.path, `${pathname}${search}`);
  const response = NextResponse.next({ request: { headers } });
  for (const c of changed) response.cookies.set(c.name, c.value, c.options);
  return response;
}

async function refreshSupabaseSession(request: NextRequest): Promise<CookieChange[]> {
  const config = supabaseAuthConfig();
  const jar = { getAll: () => request.cookies.getAll() };
  if (!config || request.headers.has("authorization") || !hasSupabaseSession(jar)) return [];
  const changed: CookieChange[] = [];
  const client = await supabaseClient(config, {
    ...jar,
    set: (name, value, options) => {
      // the page or route handler of this request sees the refreshed session too
      request.cookies.set(name, value);
      changed.push({ name, value, options });
    },
  });
  // getClaims verifies the token (asking Supabase for symmetric keys) and refreshes it if expired
  await client.auth.getClaims();
  return changed;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
