import type { NextRequest } from "next/server";
import { unservedApiRequest } from "@/lib/http/api-routes";

/**
 * In front of every /api request: an unknown path answers 404 and an unsupported method 405 in the
 * API's JSON error shape (Next.js would answer an HTML page or an empty body). Everything else goes
 * on to its route handler untouched.
 */
export function proxy(req: NextRequest): Response | undefined {
  return unservedApiRequest(req.method, req.nextUrl.pathname) ?? undefined;
}

export const config = { matcher: "/api/:path*" };
