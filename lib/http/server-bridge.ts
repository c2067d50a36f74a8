import "server-only";
import { closeDatabase } from "@/lib/db";
import { getConfig } from "@/lib/config";
import { stopConsolidationScheduler } from "@/lib/lifecycle/scheduler";
import { stopLeftoverJanitor } from "@/lib/bulk/leftovers";
import { stopLocalReembed } from "@/lib/embeddings/local-upgrade";
import { recordHttpRequest } from "@/lib/metrics/http";
import { tracingConfigured } from "@/lib/metrics/tracing";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { flushTermStats } from "@/lib/retrieval/search/term-stats";
import { callerOf, type Admission, type Caller } from "@/server/admission.mjs";
import { SEAM_GLOBALS } from "@/server/seam.mjs";
import { admission } from "./admission";
import { maxBodyBytesOf, requiresCredentials, routeTemplate, unservedApiAnswer, waitsForTurn } from "./api-routes";
import { callerAddress, DIRECT_ADDRESS } from "./caller-address";
import { errorBody } from "./errors";
import { toApiError } from "./route";

type NodeHeaders = Record<string, string | string[] | undefined>;

/** An answer the server gives itself: status, JSON body, headers. */
export interface ServerAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * What server.mjs (plain Node, outside the build) needs from the app: the admission control instance
 * (the one the route wrapper would use), who a request comes from, each route's body limit and the
 * answers the server may give before reading a body, the front door's settings, the metrics, the
 * error shape and the shutdown. Installed on globalThis by instrumentation.ts when the server starts.
 */
export interface ServerBridge {
  admission(): Admission;
  /** The caller a request comes from, for its place in the queue (unverified); `peer` is the socket's address. */
  callerOf(headers: NodeHeaders, peer: string | undefined): Caller;
  /** Whether an API request to `pathname` waits for an admission turn (all but health and metrics). */
  waitsForTurn(pathname: string): boolean;
  /** The body limit of a request to `pathname`: its route's, else MAX_BODY_BYTES. */
  bodyLimit(method: string, pathname: string): number;
  /**
   * The answer a request will get whatever its body (for `Expect: 100-continue`): 404/405 when no
   * route serves it, 401 when its route needs a key or a session and it carries neither; else null.
   */
  refusalBeforeBody(method: string, pathname: string, headers: NodeHeaders): ServerAnswer | null;
  frontDoor(): { headersTimeoutMs: number; bodyTimeoutMs: number; keepAliveTimeoutMs: number; maxIdleConnections: number; maxBodyBytes: number };
  /**
   * Whether API calls with a bearer key go straight to their route handler (API_DIRECT), not through
   * Next.js's request handler: not while OpenTelemetry tracing is on, whose request spans are Next.js's.
   */
  directApi(): boolean;
  routeTemplate(pathname: string): string | undefined;
  recordHttpRequest: typeof recordHttpRequest;
  errorBody(code: "rate_limited" | "service_unavailable" | "bad_request" | "payload_too_large" | "request_timeout" | "unauthorized" | "headers_too_large", message: string): unknown;
  /** The API's 500 body for an error thrown outside any route handler (logged with the request id it names). */
  failure(err: unknown): unknown;
  /** Once every request is answered: stores the counters still pending, closes the database. */
  shutdown(): Promise<void>;
}

const header = (headers: NodeHeaders, name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
};

export function installServerBridge(): void {
  const bridge: ServerBridge = {
    admission,
    callerOf: (headers, peer) => {
      const forwarded = header(headers, "x-forwarded-for");
      const trusted = forwarded ? callerAddress(new Headers({ "x-forwarded-for": forwarded })) : DIRECT_ADDRESS;
      return callerOf({
        authorization: header(headers, "authorization"),
        cookie: header(headers, "cookie"),
        address: trusted === DIRECT_ADDRESS ? peer : trusted,
        adminKey: getConfig().ADMIN_API_KEY,
      });
    },
    waitsForTurn,
    bodyLimit: (method, pathname) => maxBodyBytesOf(method, pathname) ?? getConfig().MAX_BODY_BYTES,
    refusalBeforeBody: (method, pathname, headers) => {
      const unserved = unservedApiAnswer(method, pathname);
      if (unserved) return unserved;
      if (requiresCredentials(method, pathname) && !header(headers, "authorization") && !header(headers, "cookie")) {
        return {
          status: 401,
          body: errorBody("unauthorized", "Sign in, or send an API key as 'Authorization: Bearer <key>'"),
          headers: { "www-authenticate": 'Bearer realm="memory-hq"' },
        };
      }
      return null;
    },
    frontDoor: () => {
      const c = getConfig();
      return {
        headersTimeoutMs: c.HEADERS_TIMEOUT_MS,
        bodyTimeoutMs: c.BODY_TIMEOUT_MS,
        keepAliveTimeoutMs: c.KEEP_ALIVE_TIMEOUT_MS,
        maxIdleConnections: c.MAX_IDLE_CONNECTIONS,
        maxBodyBytes: c.MAX_BODY_BYTES,
      };
    },
    directApi: () => getConfig().API_DIRECT && !tracingConfigured(),
    routeTemplate,
    recordHttpRequest,
    errorBody: (code, message) => errorBody(code, message),
    failure: (err) => {
      const e = toApiError(err);
      return errorBody(e.code, e.message);
    },
    shutdown: async () => {
      stopConsolidationScheduler();
      await stopLeftoverJanitor();
      await stopLocalReembed();
      // batched counters held in memory: access events are already rows (the fold only moves them),
      // but folding now keeps the counters exact for the next start; the BM25 statistics are rebuilt
      for (const [what, flush] of [["access counters", flushAccessCounts], ["term statistics", flushTermStats]] as const) {
        try {
          await flush();
        } catch (err) {
          console.error(`[memory-hq] shutdown: ${what} not stored:`, err instanceof Error ? err.message : err);
        }
      }
      await closeDatabase();
    },
  };
  (globalThis as Record<string, unknown>)[SEAM_GLOBALS.bridge] = bridge;
}
