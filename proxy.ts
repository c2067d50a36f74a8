import { NextResponse, type NextRequest } from "next/server";

/**
 * Passes the requested console address to the server layouts (`x-mhq-path`), so a visitor who must
 * sign in first is brought back to the page they asked for. Authentication itself stays in the
 * layouts and the API.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set("x-mhq-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/((?!api/|_next/|icon.svg|favicon.ico).*)"],
};
