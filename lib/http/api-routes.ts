import { errorBody } from "./errors";
import { ALL_CONTRACTS } from "@/lib/contracts";

// Next.js answers a path no route file serves with its HTML 404 page and a method a route file
// does not export with an empty 405. The API answers both in its JSON error shape instead, from the
// endpoint list the OpenAPI document is built from (a unit test keeps that list equal to the route
// files and their methods), plus the MCP endpoint, which speaks its own protocol. It reads the
// contracts alone, not the OpenAPI builder: the proxy bundles this table.

const NON_REST: { method: string; path: string; refused?: true; permission?: null; queued?: false }[] = [
  { method: "POST", path: "/api/mcp" },
  // exported by the route only to answer 405 (a stateless MCP server has no stream or session): not in Allow
  { method: "GET", path: "/api/mcp", refused: true },
  { method: "DELETE", path: "/api/mcp", refused: true },
  // Prometheus's text format, for monitoring: never queued (a scrape must show an overload, not wait behind it)
  { method: "GET", path: "/api/metrics", queued: false },
];

interface RoutePattern {
  /** the template, `/api/v1/memories/{id}` */
  path: string;
  regex: RegExp;
  /** one entry per segment, 0 static / 1 dynamic: Next.js prefers static segments, leftmost first */
  rank: number[];
  methods: Set<string>;
  /** methods whose handler only answers 405 */
  refused: Set<string>;
  /** method → the body limit of its contract, where it sets one */
  maxBodyBytes: Map<string, number>;
  /** methods anyone may call (no key or session needed) */
  open: Set<string>;
  /** served without an admission turn (health, metrics) */
  unqueued: boolean;
}

const patterns: RoutePattern[] = (() => {
  const byPath = new Map<string, RoutePattern>();
  for (const e of [...ALL_CONTRACTS, ...NON_REST]) {
    let p = byPath.get(e.path);
    if (!p) {
      const segments = e.path.split("/").filter(Boolean);
      const source = segments
        .map((s) => (/^\{\w+\}$/.test(s) ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join("/");
      p = {
        path: e.path,
        regex: new RegExp(`^/${source}$`),
        rank: segments.map((s) => (s.startsWith("{") ? 1 : 0)),
        methods: new Set(),
        refused: new Set(),
        maxBodyBytes: new Map(),
        open: new Set(),
        unqueued: false,
      };
      byPath.set(e.path, p);
    }
    p.methods.add(e.method);
    if ("refused" in e && e.refused) p.refused.add(e.method);
    if ("maxBodyBytes" in e && e.maxBodyBytes) p.maxBodyBytes.set(e.method, e.maxBodyBytes);
    if (e.permission === null) p.open.add(e.method);
    if ("queued" in e && e.queued === false) p.unqueued = true;
  }
  return [...byPath.values()];
})();

const compareRank = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
};

/** The route file Next.js would pick for `pathname`, or undefined when none serves it. */
function routeFor(pathname: string): RoutePattern | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  let best: RoutePattern | undefined;
  for (const p of patterns) {
    if (p.regex.test(path) && (!best || compareRank(p.rank, best.rank) < 0)) best = p;
  }
  return best;
}

/** The methods a route answers: its own, HEAD with GET, and OPTIONS (Next.js implements both). */
function allowed(route: RoutePattern): string[] {
  const methods = [...route.methods].filter((m) => !route.refused.has(m));
  if (methods.includes("GET")) methods.push("HEAD");
  return [...methods, "OPTIONS"];
}

/** The route template (`/api/v1/memories/{id}`) Next.js would serve `pathname` with, or undefined. */
export function routeTemplate(pathname: string): string | undefined {
  return routeFor(pathname)?.path;
}

/** The body limit the contract of `method` on `pathname` sets, if it sets one (else MAX_BODY_BYTES applies). */
export function maxBodyBytesOf(method: string, pathname: string): number | undefined {
  return routeFor(pathname)?.maxBodyBytes.get(method.toUpperCase());
}

/** Whether a request to `pathname` waits for an admission turn (all but health and metrics; unknown paths too). */
export function waitsForTurn(pathname: string): boolean {
  return !routeFor(pathname)?.unqueued;
}

/** Whether a request needs a key or a session: its route serves the method and only to a caller it knows. */
export function requiresCredentials(method: string, pathname: string): boolean {
  const route = routeFor(pathname);
  const m = method.toUpperCase();
  return !!route && route.methods.has(m) && !route.refused.has(m) && !route.open.has(m);
}

/** What answers a request no route handler would serve (see unservedApiRequest). */
export interface UnservedAnswer {
  status: 404 | 405;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * The JSON answer for a request no route handler would serve: 404 `not_found` for an unknown API
 * path, 405 `method_not_allowed` (with Allow) for a method the route does not answer; null when a
 * handler serves it.
 */
export function unservedApiAnswer(method: string, pathname: string): UnservedAnswer | null {
  const route = routeFor(pathname);
  if (!route) return { status: 404, body: errorBody("not_found", `No API endpoint at ${pathname}`), headers: {} };
  const methods = allowed(route);
  if (methods.includes(method.toUpperCase()) || route.refused.has(method.toUpperCase())) return null;
  return {
    status: 405,
    body: errorBody("method_not_allowed", `${method.toUpperCase()} is not allowed here; use ${methods.join(", ")}`),
    headers: { Allow: methods.join(", ") },
  };
}

/** unservedApiAnswer as a Response (the proxy's). */
export function unservedApiRequest(method: string, pathname: string): Response | null {
  const answer = unservedApiAnswer(method, pathname);
  return answer ? Response.json(answer.body, { status: answer.status, headers: answer.headers }) : null;
}

/** Where an OAuth client looks when a server publishes no metadata (MCP's default endpoints). */
const OAUTH_DEFAULT_ENDPOINTS = new Set(["/authorize", "/token", "/register"]);

/**
 * The JSON 404 for `/.well-known/…` and OAuth's default endpoints: the server offers no OAuth (MCP and
 * the API take a bearer key as given), so a client probing for it learns that at once instead of
 * being sent to the console's sign-in page. Null for any other path.
 */
export function oauthProbeRequest(pathname: string): Response | null {
  if (!pathname.startsWith("/.well-known/") && !OAUTH_DEFAULT_ENDPOINTS.has(pathname)) return null;
  return Response.json(
    errorBody("not_found", `No ${pathname} here: this server offers no OAuth; send an API key as 'Authorization: Bearer <key>'`),
    { status: 404 },
  );
}
