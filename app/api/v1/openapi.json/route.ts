// GET /api/v1/openapi.json — the OpenAPI document, generated from the same zod schemas the handlers parse
import { getConfig } from "@/lib/config";
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { route } from "@/lib/http/route";
import { systemContracts } from "@/lib/http/system-contracts";

export const GET = route(systemContracts.openapi, async ({ req }) =>
  buildOpenApiDocument({ origin: requestOrigin(req), maxBodyBytes: getConfig().MAX_BODY_BYTES }),
);

/** The origin the caller reached this server at (behind a proxy: its forwarded host and scheme). */
function requestOrigin(req: { headers: Headers; nextUrl: URL }): string {
  const host = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || req.headers.get("host");
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || req.nextUrl.protocol.replace(/:$/, "");
  return host && /^[\w.:[\]-]+$/.test(host) && /^https?$/.test(proto) ? `${proto}://${host}` : req.nextUrl.origin;
}
