import "server-only";
import { closeDatabase } from "@/lib/db";
import { getConfig } from "@/lib/config";
import { stopConsolidationScheduler } from "@/lib/lifecycle/scheduler";
import { stopLeftoverJanitor } from "@/lib/bulk/leftovers";
import { admissionLimits, admissionRejected, admissionState, admissionWaited } from "@/lib/metrics/admission";
import { recordHttpRequest } from "@/lib/metrics/http";
import { tracingConfigured } from "@/lib/metrics/tracing";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { flushTermStats } from "@/lib/retrieval/search/term-stats";
import { admissionSettings } from "./admission";
import { routeTemplate, unservedApiAnswer, type UnservedAnswer } from "./api-routes";
import { SEAM_GLOBALS } from "@/server/seam.mjs";
import { errorBody } from "./errors";

/**
 * What server.mjs (plain Node, outside the build) needs from the app: admission control's limits and
 * metrics, the route template of a path and the answer for one no route serves, the error shape, and
 * the shutdown. Installed on globalThis by instrumentation.ts when the server starts.
 */
export interface ServerBridge {
  admission(): { concurrency: number; queue: number; maxWaitMs: number };
  routeTemplate(pathname: string): string | undefined;
  /**
   * Whether API calls with a bearer key go straight to their route handler (API_DIRECT), not through
   * Next.js's request handler: not while OpenTelemetry tracing is on, whose request spans are Next.js's.
   */
  directApi(): boolean;
  /** The JSON 404/405 for an API request no route handler serves, or null. */
  unservedApi(method: string, pathname: string): UnservedAnswer | null;
  recordHttpRequest: typeof recordHttpRequest;
  admissionLimits: typeof admissionLimits;
  admissionState: typeof admissionState;
  admissionWaited: typeof admissionWaited;
  admissionRejected: typeof admissionRejected;
  errorBody(code: "rate_limited" | "service_unavailable" | "internal_error", message: string): unknown;
  /** Once every request is answered: stores the counters still pending, closes the database. */
  shutdown(): Promise<void>;
}

export function installServerBridge(): void {
  const bridge: ServerBridge = {
    admission: admissionSettings,
    routeTemplate,
    directApi: () => getConfig().API_DIRECT && !tracingConfigured(),
    unservedApi: unservedApiAnswer,
    recordHttpRequest,
    admissionLimits,
    admissionState,
    admissionWaited,
    admissionRejected,
    errorBody: (code, message) => errorBody(code, message),
    shutdown: async () => {
      stopConsolidationScheduler();
      await stopLeftoverJanitor();
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
