// Everything the production server (server.mjs and this folder: plain Node, outside the build) and the
// app (built by Next.js) share, named once. Both sides import these names from here; nothing else
// crosses between them.

/** Process-wide objects one side puts on `globalThis` for the other. */
export const SEAM_GLOBALS = Object.freeze({
  /** the app's functions the server calls (admission limits and metrics, routes, errors, shutdown): lib/http/server-bridge.ts */
  bridge: "__memoryHqServerBridge",
  /** true under server.mjs, which admits every API request as it arrives; the route wrapper then does not admit again */
  admittedAtAccept: "__memoryHqAdmittedAtAccept",
  /** the embedded engine's thread, for what only it can do (a snapshot of its data directory): lib/db */
  engine: "__memoryHqEngine",
});

/**
 * Request headers the server sets for the app. Only the server sets them: it removes any a client sent,
 * on every path, before anything else reads the request.
 */
export const SEAM_HEADERS = Object.freeze({
  /** how long the request waited for its admission turn, in ms */
  queueMs: "x-memory-hq-queue-ms",
  /** the console page a visitor asked for, set by the proxy for the server layouts (sign-in brings them back) */
  path: "x-mhq-path",
});

/** The environment variable through which the server hands the app the embedded engine's socket. */
export const ENGINE_SOCKET_ENV = "MHQ_ENGINE_SOCKET";

/** The route label of a request no route serves, in metrics (never the path itself). */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * The reason the server aborts a route handler's signal with when it must stop the handler before the
 * shutdown deadline: the handler's unfinished transaction rolls back and its caller, still connected,
 * is answered 503 (a caller who left aborts it with no reason of this kind, and gets no answer).
 */
export const SERVER_STOPPING = "memory-hq: the server is shutting down";
