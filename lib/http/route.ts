import "server-only";
import { randomUUID } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { authenticate } from "@/lib/auth/authenticate";
import type { Caller } from "@/lib/auth/caller";
import { assertCan, type Permission } from "@/lib/auth/permissions";
import { getConfig } from "@/lib/config";
import { admitted } from "./admission";
import { readJsonBody, refuseBody } from "./body";
import { ApiError, errorBody, fromDatabaseError, RateLimitedError } from "./errors";
import { guardedQuery } from "./input-guards";

type Schema = z.ZodType | undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

interface Options<B extends Schema, Q extends Schema> {
  /** who may call; null makes the route public (no authentication) */
  permission: Permission | null;
  body?: B;
  query?: Q;
  maxBodyBytes?: number;
}

export interface Context<B extends Schema, Q extends Schema, C> {
  req: NextRequest;
  caller: C;
  body: Out<B>;
  query: Out<Q>;
  params: Record<string, string>;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function route<B extends Schema = undefined, Q extends Schema = undefined>(
  opts: Options<B, Q> & { permission: Permission },
  handler: (ctx: Context<B, Q, Caller>) => Promise<unknown>,
): (req: NextRequest, ctx: RouteContext) => Promise<Response>;
export function route<B extends Schema = undefined, Q extends Schema = undefined>(
  opts: Options<B, Q> & { permission: null },
  handler: (ctx: Context<B, Q, Caller | null>) => Promise<unknown>,
): (req: NextRequest, ctx: RouteContext) => Promise<Response>;
/** The one wrapper every API route goes through: authenticate → authorise → parse → call → respond. */
export function route<B extends Schema, Q extends Schema>(
  opts: Options<B, Q>,
  handler: (ctx: Context<B, Q, Caller>) => Promise<unknown>,
) {
  return admitted(async (req: NextRequest, ctx: RouteContext): Promise<Response> => {
    try {
      let caller: Caller | null = null;
      if (opts.permission !== null) {
        caller = await authenticate(req, req.cookies);
        if (caller.type === "hq" && caller.userId && !isSafeMethod(req.method)) assertSameOrigin(req);
        assertCan(caller, opts.permission);
      }
      const params = Object.fromEntries(
        Object.entries((await ctx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      );
      const query = opts.query ? opts.query.parse(guardedQuery(req.nextUrl.searchParams)) : undefined;
      const maxBytes = opts.maxBodyBytes ?? getConfig().MAX_BODY_BYTES;
      const body = opts.body ? opts.body.parse(await readJsonBody(req, maxBytes)) : await refuseBody(req, maxBytes);
      const result = await handler({ req, caller: caller as Caller, body, query, params } as Context<B, Q, Caller>);
      return result instanceof Response ? result : NextResponse.json(result ?? {});
    } catch (err) {
      return errorResponse(err);
    }
  });
}

export function json(data: unknown, status = 200): Response {
  return NextResponse.json(data, { status });
}

export function errorResponse(err: unknown): Response {
  if (err instanceof RateLimitedError) {
    const res = json(errorBody(err.code, err.message, err.details), err.status);
    res.headers.set("Retry-After", String(err.retryAfterSeconds));
    return res;
  }
  if (err instanceof ApiError) return json(errorBody(err.code, err.message, err.details), err.status);
  if (err instanceof z.ZodError) {
    const details = err.issues.map((i) => ({ path: i.path.join("."), message: i.message, code: i.code }));
    const first = details[0];
    const message = first ? `${first.path || "body"}: ${first.message}` : "Invalid request";
    return json(errorBody("validation_failed", message, details), 422);
  }
  const mapped = fromDatabaseError(err);
  if (mapped) return json(errorBody(mapped.code, mapped.message), mapped.status);
  const requestId = randomUUID();
  console.error(`[memory-hq] request ${requestId} failed:`, err);
  return json(errorBody("internal_error", `Something went wrong (request ${requestId})`), 500);
}

const isSafeMethod = (m: string) => m === "GET" || m === "HEAD" || m === "OPTIONS";

// A cookie-authenticated write must come from our own pages: reject cross-site form posts.
function assertSameOrigin(req: NextRequest) {
  const origin = req.headers.get("origin");
  if (!origin) return;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ApiError("forbidden", "Cross-site request refused");
  }
  if (host && originHost !== host) throw new ApiError("forbidden", "Cross-site request refused");
}
