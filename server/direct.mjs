// API calls with a bearer key, handed straight to their route handler (server.mjs).
//
// Next.js's request handler spends a millisecond or two of every call on its proxy (proxy.ts), its
// routing and on turning the handler's Response into the Node answer (headers flushed on their own,
// the body pumped through web streams in chunks). An agent's call with a bearer key needs none of it:
// the route handlers are plain `(Request, { params })` functions that authenticate, parse and answer
// themselves (lib/http/route.ts; a lint rule keeps Next.js's request-scoped APIs out of them). So
// server.mjs takes the route the app's own table picks for the path (the one Next.js would pick), its
// file from the build's list (app-paths-manifest.json), and calls the same handler Next.js would call
// — the module Next.js loaded, not a copy — then writes the answer in one piece.
//
// Everything else goes through Next.js: console pages, session (cookie) calls and the sign-in routes
// (/api/v1/auth/…), the MCP and metrics endpoints, HEAD and OPTIONS (which Next.js implements for a
// route), a path no route serves or with a trailing slash, a route served from the build's prerendered
// output or a route module this server cannot read, and every request while OpenTelemetry tracing is
// on (Next.js's spans then cover each call). API_DIRECT=false sends every request through Next.js.
//
// Two things this relies on are Next.js's own, not its documented API: an app route module's
// `routeModule.userland` (the route file's exports) and `ensureUserland()` (loads them). If a Next.js
// release changes them, the route is served through Next.js and the server says so once.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Headers a handler's Response may carry that do not describe the bytes written here (as Next.js drops them). */
const FRAMING_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "set-cookie"]);
/** Methods Next.js answers for a route on its own (HEAD from GET, OPTIONS with Allow). */
const NEXT_IMPLEMENTED = new Set(["HEAD", "OPTIONS"]);

/**
 * The route files of the build in `distDir` under /api/v1: `lookup(method, pathname)` gives the
 * handler and its params, or null when Next.js should serve the request. `routeTemplate(pathname)` is
 * the app's own choice of route (lib/http/api-routes.ts). `makeRequest(url, init)` builds the request
 * object handlers take (Next.js's NextRequest). Throws when the build's list cannot be read.
 */
export function createDirectRoutes({ distDir, routeTemplate, makeRequest }) {
  const require = createRequire(import.meta.url);
  const serverDir = path.join(distDir, "server");
  const manifest = JSON.parse(readFileSync(path.join(serverDir, "app-paths-manifest.json"), "utf8"));
  let prerendered = new Set();
  try {
    prerendered = new Set(Object.keys(JSON.parse(readFileSync(path.join(distDir, "prerender-manifest.json"), "utf8")).routes ?? {}));
  } catch {
    /* no prerendered routes */
  }
  /** template → { segments, file, handlers } for each route file served here */
  const routes = new Map();
  for (const [page, file] of Object.entries(manifest)) {
    if (!page.startsWith("/api/v1/") || !page.endsWith("/route")) continue;
    const folder = page.slice(0, -"/route".length);
    if (prerendered.has(folder)) continue; // served from the build's output by Next.js
    const template = folder.replace(/\[(\w+)\]/g, "{$1}");
    routes.set(template, {
      segments: template.split("/").map((s) => (/^\{\w+\}$/.test(s) ? s.slice(1, -1) : null)),
      file: path.join(serverDir, file),
      handlers: null, // method → handler, loaded at the first call
    });
  }

  /** The route file for `pathname` and its params (escapes decoded), or null. */
  function match(pathname) {
    const template = routeTemplate(pathname);
    const route = template === undefined ? undefined : routes.get(template);
    if (!route) return null;
    const parts = pathname.split("/");
    const params = {};
    for (let i = 0; i < parts.length; i++) {
      const name = route.segments[i];
      if (!name) continue;
      try {
        params[name] = decodeURIComponent(parts[i]);
      } catch {
        return null; // a malformed escape: Next.js answers it
      }
    }
    return { route, params };
  }

  /**
   * The route module Next.js loaded for `file` (the same instance: Node's module cache), its handlers
   * by method; none (Next.js serves the route) when the module is not what this server expects.
   */
  async function handlersOf(route) {
    if (route.handlers) return route.handlers;
    try {
      const routeModule = require(route.file)?.routeModule;
      if (typeof routeModule?.ensureUserland !== "function") throw new Error("no app route module in it");
      await routeModule.ensureUserland();
      const userland = routeModule.userland;
      // a route that asks for anything but a dynamic handler (static output, a revalidation time) stays with Next.js
      const plain = userland.dynamic === undefined || userland.dynamic === "force-dynamic";
      route.handlers = plain && userland.revalidate === undefined ? userland : {};
    } catch (err) {
      console.error(`[memory-hq] ${route.file}: served through Next.js (${err instanceof Error ? err.message : err})`);
      route.handlers = {};
    }
    return route.handlers;
  }

  return {
    /** `{ handler, params }` for a request a route handler serves directly, or null. */
    async lookup(method, pathname) {
      if (NEXT_IMPLEMENTED.has(method)) return null;
      if (!pathname.startsWith("/api/v1/") || pathname.startsWith("/api/v1/auth/") || pathname.endsWith("/")) return null;
      const found = match(pathname);
      if (!found) return null;
      const handler = (await handlersOf(found.route))[method];
      return typeof handler === "function" ? { handler, params: found.params } : null;
    },

    /**
     * Calls `handler` with the request (its body already read: `body`) and writes its Response to
     * `res`. `signal` aborts when the client disconnects.
     */
    async serve(req, res, { handler, params }, body, signal) {
      // the scheme as Next.js takes it (a TLS-terminating proxy's X-Forwarded-Proto)
      const scheme = String(req.headers["x-forwarded-proto"] ?? "").includes("https") ? "https" : "http";
      const request = makeRequest(`${scheme}://${req.headers.host ?? "localhost"}${req.url}`, {
        method: req.method,
        headers: toHeaders(req.headers),
        signal,
        ...(body.length ? { body } : {}),
      });
      const response = await handler(request, { params: Promise.resolve(params) });
      await writeResponse(res, response);
    },
  };
}

function toHeaders(raw) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

/**
 * Writes a web Response to a Node answer: the head and a body of one chunk in one write, with its
 * Content-Length (a JSON answer); a longer stream (a backup, an export) chunk by chunk as it comes,
 * pausing while the client is slow.
 */
async function writeResponse(res, response) {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (!FRAMING_HEADERS.has(name)) res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  const abort = () => void reader.cancel().catch(() => {});
  res.once("close", abort);
  try {
    const first = await reader.read();
    if (first.done) return void res.end();
    const second = await reader.read();
    if (second.done) return void res.end(first.value);
    res.write(first.value);
    for (let chunk = second; !chunk.done; chunk = await reader.read()) {
      if (res.destroyed) return;
      if (!res.write(chunk.value)) await new Promise((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
    }
    res.end();
  } finally {
    res.off("close", abort);
  }
}
