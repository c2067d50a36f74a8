import "server-only";
import { randomUUID } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { authenticate } from "@/lib/auth/authenticate";
import type { Caller } from "@/lib/auth/caller";
import { assertCan } from "@/lib/auth/permissions";
import { getConfig } from "@/lib/config";
import { isSchemaNotReady } from "@/lib/db/migrate";
import { forRequest, RequestAbandonedError } from "@/lib/db/request-scope";
import { measured } from "@/lib/metrics/http";
import { admitted } from "./admission";
import { readJsonBody, refuseBody } from "./body";
import type { AnyContract, ParsedParams, ServerResponse } from "./contract";
import { ApiError, ClientClosedRequestError, errorBody, fromDatabaseError, RateLimitedError, ROLLED_BACK } from "./errors";
import { guardedQuery, unknownKeys } from "./input-guards";

type Schema = z.ZodType | undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface Context<B extends Schema, Q extends Schema, C, P = Record<string, string>> {
  req: NextRequest;
  caller: C;
  body: Out<B>;
  query: Out<Q>;
  params: P;
}

export type ContractContext<K extends AnyContract> = Context<
  K["body"],
  K["query"],
  K["permission"] extends null ? Caller | null : Caller,
  ParsedParams<K>
>;

/** A handler answers the contract's response (or a ready Response: a file, a status other than `status`). */
export type ContractHandler<K extends AnyContract> = (ctx: ContractContext<K>) => Promise<ServerResponse<K> | Response>;

type RouteContext = { params: Promise<Record<string, string | string[]>> };
type Handler = (req: NextRequest, ctx: RouteContext) => Promise<Response>;

/** The one wrapper every API route goes through: authenticate → authorise → parse → call → respond. */
export function route<const K extends AnyContract>(contract: K, handler: ContractHandler<K>): Handler {
  const call = handler as unknown as (ctx: Context<Schema, Schema, Caller, unknown>) => Promise<unknown>;
  // counted under the contract's path (a template such as /api/v1/memories/{id}), 429s of the queue
  // included; the handler's database work is bound to the request, so a caller that disconnects has
  // its unfinished transaction rolled back (lib/db/request-scope.ts)
  return measured(contract.path, admitted(contract.queued !== false, (req: NextRequest, ctx: RouteContext): Promise<Response> => forRequest(req.signal, async () => {
    try {
      let caller: Caller | null = null;
      if (contract.permission !== null) {
        caller = await authenticate(req, req.cookies);
        if (caller.type === "hq" && caller.userId && !isSafeMethod(req.method)) assertSameOrigin(req);
        assertCan(caller, contract.permission);
      } else if (!isSafeMethod(req.method)) {
        // the public writes are the browser's sign-in, setup, invitation and sign-out forms, which
        // act on (or set) the session cookie: only our own pages may post them
        assertSameOrigin(req);
      }
      const raw = Object.fromEntries(
        Object.entries((await ctx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      );
      const params = contract.params ? contract.params.parse(raw) : raw;
      // a route that takes no query refuses one, as every other route refuses a parameter it does not know
      const query = parseQuery(contract.query ?? NO_QUERY, guardedQuery(req.nextUrl.searchParams));
      const maxBytes = contract.maxBodyBytes ?? getConfig().MAX_BODY_BYTES;
      const body = contract.body ? parseBody(contract.body, await readJsonBody(req, maxBytes), contract.bodyItems) : await refuseBody(req, maxBytes);
      const result = await call({ req, caller: caller as Caller, body, query, params });
      if (result instanceof Response) {
        // a ready JSON success (one that sets cookies, a 200 instead of a 201) is checked too
        if (contract.response && verifyResponses && result.ok && isJson(result)) {
          verifyResponse(contract.response, await result.clone().json(), contract.path);
        }
        return result;
      }
      if (contract.response && verifyResponses) verifyResponse(contract.response, result, contract.path);
      return NextResponse.json(result ?? {}, { status: contract.status ?? 200 });
    } catch (err) {
      return errorResponse(err);
    }
  })));
}

/** The query of a route that takes none: any parameter is unknown to it. */
const NO_QUERY = z.object({}).strict();

// The test suites set this: every answer is checked against its contract, so a contract that drifts from
// what the code returns fails a test instead of misleading clients.
const verifyResponses = process.env.MHQ_VERIFY_RESPONSES === "1";

const isJson = (res: Response) => res.headers.get("content-type")?.includes("application/json") ?? false;

function verifyResponse(schema: z.ZodType, result: unknown, path: string | undefined) {
  const wire: unknown = JSON.parse(JSON.stringify(result ?? {}));
  const check = schema.safeDecode(wire as never);
  if (!check.success) {
    throw new Error(`The answer of ${path} does not match its contract: ${z.prettifyError(check.error)}`);
  }
}

export function json(data: unknown, status = 200): Response {
  return NextResponse.json(data, { status });
}

export function errorResponse(err: unknown): Response {
  // no one is left to read an answer (the body never arrived whole, or the caller left mid-request):
  // the status is for the metrics and any proxy's log (nginx's "client closed request")
  if (err instanceof ClientClosedRequestError || err instanceof RequestAbandonedError) return new Response(null, { status: ClientClosedRequestError.status });
  const e = toApiError(err);
  const res = json(errorBody(e.code, e.message, e.details), e.status);
  if (e instanceof RateLimitedError) res.headers.set("Retry-After", String(e.retryAfterSeconds));
  // an unmigrated database is looked at again, and an unreachable one tried again, within seconds
  if (e.status === 503 && !res.headers.has("Retry-After")) res.headers.set("Retry-After", "5");
  // a 401 names the scheme that works (RFC 9110): a bearer key, no OAuth flow to discover
  if (e.status === 401) res.headers.set("WWW-Authenticate", 'Bearer realm="memory-hq"');
  return res;
}

/**
 * The query string as its contract reads it; what it refuses is named as the query's ("query: unknown
 * parameter \"foo\"", "limit: …"), never as the body's.
 */
function parseQuery<T extends z.ZodType>(schema: T, params: Record<string, unknown>): z.output<T> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw validationError(
    parsed.error.issues.map((i) => (i.code === "unrecognized_keys" ? { ...i, message: unknownKeys(i.keys, "parameter") } : i)),
    "query",
  );
}

/**
 * Whether an issue only says a number is past what a whole number can hold exactly (zod's int checks
 * add that bound to every integer field): beside the field's own bound it says nothing the caller can use.
 */
const safeIntegerBound = (i: z.core.$ZodIssue) =>
  (i.code === "too_big" && Number(i.maximum) === Number.MAX_SAFE_INTEGER) || (i.code === "too_small" && Number(i.minimum) === Number.MIN_SAFE_INTEGER);

/** A schema's refusal as the API's 422: the first issue in `message`, named by its path (or `where` at the top). */
function validationError(all: readonly z.core.$ZodIssue[], where: "body" | "query") {
  const key = (i: z.core.$ZodIssue) => i.path.join(".");
  // a huge limit is told the field's own maximum, not 9007199254740991
  const issues = all.filter((i) => !safeIntegerBound(i) || !all.some((o) => o !== i && key(o) === key(i) && !safeIntegerBound(o)));
  const details = issues.map((i) => ({ path: i.path.join("."), message: i.message, code: i.code }));
  const first = details[0];
  const message = first ? `${first.path || where}: ${first.message}` : "Invalid request";
  return new ApiError("validation_failed", message, details);
}

/** Any error thrown below a handler as the API's one error type (unknown ones logged with a request id). */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isSchemaNotReady(err)) return new ApiError("service_unavailable", err.message);
  if (err instanceof z.ZodError) return validationError(err.issues, "body");
  const mapped = fromDatabaseError(err);
  // a collision is answered 503 so the caller retries, and still logged: each one is a lock order to fix
  if (mapped?.message === ROLLED_BACK) console.error(`[memory-hq] request rolled back by the database (retry answered):`, err);
  else if (mapped?.status === 503) logUnreachable(err);
  if (mapped) return mapped;
  const requestId = randomUUID();
  console.error(`[memory-hq] request ${requestId} failed:`, err);
  return new ApiError("internal_error", `Something went wrong (request ${requestId})`);
}

const UNREACHABLE_LOG_MS = 10_000;
let unreachableLoggedAt = 0;

/** An unreachable database fails every request alike: said in one line at most every ten seconds, not a stack per request. */
function logUnreachable(err: unknown) {
  const now = Date.now();
  if (now - unreachableLoggedAt < UNREACHABLE_LOG_MS) return;
  unreachableLoggedAt = now;
  const e = err as { code?: string; message?: string };
  console.error(`[memory-hq] the database cannot be reached (${e.code}: ${e.message}); requests are answered 503 until it can`);
}

/** Parses a body (or an MCP tool's input); in a batch, a bad item is named by its position (`details.index`). */
export function parseBody(schema: z.ZodType, raw: unknown, items: string | undefined): unknown {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = items ? parsed.error.issues.find((i) => i.path[0] === items && typeof i.path[1] === "number") : undefined;
  if (!issue) throw parsed.error;
  const index = issue.path[1] as number;
  const field = issue.path.slice(2).join(".");
  throw new ApiError("validation_failed", `${items}[${index}]${field ? `.${field}` : ""}: ${issue.message}`, {
    index,
    issues: toApiError(parsed.error).details,
  });
}

const isSafeMethod = (m: string) => m === "GET" || m === "HEAD" || m === "OPTIONS";

// A cookie-authenticated write, and any public write (they set or end the session cookie), must
// come from our own pages: reject cross-site form posts. Scripts send no Origin and pass.
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
