import "server-only";
import { acceptQueueMs } from "./admission";
import { metrics } from "./registry";
import { UNMATCHED_ROUTE } from "@/server/seam.mjs";

/** The label of a request no route serves: raw paths are never labels (each would be a new series). */
export { UNMATCHED_ROUTE };

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A request's method as a label: the HTTP methods by name, anything a client made up as `other`. */
export const methodLabel = (method: string) => (METHODS.has(method.toUpperCase()) ? method.toUpperCase() : "other");

/** Counts one answered request and its duration under its route template (`/api/v1/memories/{id}`). */
export function recordHttpRequest(route: string, method: string, status: number, seconds: number): void {
  const labels = { route, method: methodLabel(method), status: String(status) };
  const m = metrics();
  m.httpRequests.inc(labels);
  m.httpDuration.observe(labels, seconds);
}

/** Wraps a route handler so each of its answers is counted under `route`, a template. */
export function measured<A extends [Request, ...unknown[]]>(route: string, handler: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    const arrived = performance.now();
    let status = 500;
    try {
      const res = await handler(...args);
      status = res.status;
      return res;
    } finally {
      // from arrival: the wait server.mjs measured before the handler ran, when it admits at accept
      recordHttpRequest(route, args[0].method, status, (performance.now() - arrived + acceptQueueMs(args[0])) / 1000);
    }
  };
}
