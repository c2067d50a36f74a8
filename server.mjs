// The production server (`npm start`, `npm run serve`): Node's HTTP server in front of Next.js's
// request handler, so that
// - every API request is admitted in arrival order before any other work (server/admission.mjs);
//   GET /api/metrics never waits (a scrape must show an overload, not queue behind it);
// - an API call with a bearer key is checked against the routes here (a path or method none serves:
//   the JSON 404/405 at once), then skips the proxy (proxy.ts), which only the console needs, and is
//   handed straight to its route handler (server/direct.mjs);
// - the embedded database (no DATABASE_URL) runs in a thread of its own (server/engine/index.mjs),
//   reached over the Postgres wire protocol, instead of on the thread that answers requests;
// - SIGTERM/SIGINT shut down gracefully: stop accepting, answer every request already received (those
//   still waiting for a turn when the drain time runs out get 503), store pending counters, close the
//   database, exit — within SHUTDOWN_TIMEOUT_MS (default 30 s).
// Settings: PORT (3000), HOST (0.0.0.0), or `-p PORT -H HOST`; everything else as for the app.
import http from "node:http";
import path from "node:path";
import { ENGINE_SOCKET_ENV, SEAM_GLOBALS, SEAM_HEADERS, UNMATCHED_ROUTE } from "./server/seam.mjs";

process.env.NODE_ENV ??= "production";
const arg = (flag) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const port = Number(arg("-p") ?? process.env.PORT ?? 3000);
const host = arg("-H") ?? process.env.HOST ?? "0.0.0.0";
const SHUTDOWN_MS = Number(process.env.SHUTDOWN_TIMEOUT_MS || 30_000);
/** requests still waiting for a turn this long after the signal are refused (503); the rest of the time is for those running */
const DRAIN_MS = Math.min(10_000, SHUTDOWN_MS / 3);

globalThis[SEAM_GLOBALS.admittedAtAccept] = true;

let engine;
if (!process.env.DATABASE_URL) {
  const { startEmbeddedEngine } = await import("./server/engine/index.mjs");
  const dataDir = path.resolve(process.env.DATA_DIR || "./.data");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(dataDir, { recursive: true });
  engine = await startEmbeddedEngine({
    dataDir: path.join(dataDir, "pglite"),
    sharedBuffers: process.env.PGLITE_SHARED_BUFFERS || undefined,
    onExit: (code) => {
      console.error(`[memory-hq] the embedded database thread stopped (${code}); exiting`);
      process.exit(1);
    },
  });
  process.env[ENGINE_SOCKET_ENV] = engine.socketPath;
  // for operations that need the engine itself (a snapshot of the data directory)
  globalThis[SEAM_GLOBALS.engine] = { dumpDataDir: (compression) => engine.dumpDataDir(compression) };
}

const { default: next } = await import("next");
const app = next({ dev: false, hostname: host === "0.0.0.0" ? "localhost" : host, port, dir: path.dirname(new URL(import.meta.url).pathname) });
const handle = app.getRequestHandler();
await app.prepare();
// instrumentation.ts installs it; Next.js runs it as it starts, without awaiting it in prepare()
for (const until = Date.now() + 120_000; !globalThis[SEAM_GLOBALS.bridge] && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
const bridge = globalThis[SEAM_GLOBALS.bridge];
if (!bridge) throw new Error("server.mjs: the app's bridge was not installed (instrumentation.ts did not run)");
const { createAdmission } = await import("./server/admission.mjs");
const admission = createAdmission(bridge);
let direct = null;
if (bridge.directApi()) {
  const { createDirectRoutes } = await import("./server/direct.mjs");
  const { NextRequest } = await import("next/server.js");
  const distDir = path.join(path.dirname(new URL(import.meta.url).pathname), process.env.NEXT_DIST_DIR || ".next");
  direct = createDirectRoutes({ distDir, routeTemplate: bridge.routeTemplate, makeRequest: (url, init) => new NextRequest(url, init) });
}

let draining = false;
let open = 0; // responses not finished yet
let allAnswered = () => {};

function onHead(res, fn) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (draining && !res.headersSent) res.setHeader("connection", "close");
    fn();
    return writeHead.apply(this, args);
  };
}

const server = http.createServer((req, res) => {
  const arrived = performance.now();
  for (const name of Object.values(SEAM_HEADERS)) delete req.headers[name]; // only this server and the app set them
  open += 1;
  res.once("close", () => {
    open -= 1;
    if (open === 0) allAnswered();
  });
  const pathname = (req.url ?? "/").split("?")[0];
  const failed = (err) => {
    console.error("[memory-hq] request failed:", err);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify(bridge.errorBody("internal_error", "Something went wrong")));
    else res.destroy();
  };
  const serve = () => {
    handle(req, res).catch(failed);
  };
  // a bearer-key API call its route handler answers itself; anything else Next.js serves
  const serveDirect = async () => {
    const found = await direct.lookup(req.method ?? "GET", req.url ?? "/");
    if (!found) return serve();
    await direct.serve(req, res, found);
  };
  const api = pathname.startsWith("/api/") && pathname.replace(/\/+$/, "") !== "/api/metrics";
  if (draining) {
    // a request on a connection kept open from before the shutdown: not started, so refused
    if (!res.headersSent) {
      res.writeHead(503, { "content-type": "application/json", "retry-after": "1", connection: "close" });
      res.end(JSON.stringify(bridge.errorBody("service_unavailable", "The server is shutting down; retry")));
    }
    if (api) bridge.recordHttpRequest(bridge.routeTemplate(pathname) ?? UNMATCHED_ROUTE, req.method ?? "GET", 503, 0);
    return;
  }
  if (!api) {
    onHead(res, () => {});
    return serve();
  }
  const bearer = Boolean(req.headers.authorization);
  if (bearer) {
    // a path or method no route serves: the API's JSON 404/405 (as proxy.ts answers it)
    const unserved = bridge.unservedApi(req.method ?? "GET", pathname);
    if (unserved) {
      res.writeHead(unserved.status, { "content-type": "application/json", ...unserved.headers });
      res.end(JSON.stringify(unserved.body));
      bridge.recordHttpRequest(bridge.routeTemplate(pathname) ?? UNMATCHED_ROUTE, req.method ?? "GET", unserved.status, (performance.now() - arrived) / 1000);
      return;
    }
    req.headers[SEAM_HEADERS.direct] = "1";
  }
  const entry = {
    req,
    res,
    pathname,
    method: req.method ?? "GET",
    arrived,
    onHead: (fn) => onHead(res, fn),
    serve: (queueMs) => {
      req.headers[SEAM_HEADERS.queueMs] = queueMs;
      if (bearer && direct) serveDirect().catch(failed);
      else serve();
    },
  };
  admission.admit(entry);
});
server.keepAliveTimeout = 65_000; // longer than the usual load balancer's idle timeout

server.listen(port, host, () => {
  console.log(`Memory HQ listening on http://${host}:${port} (database: ${engine ? "embedded, in its own thread" : "DATABASE_URL"})`);
});

async function shutdown(signal) {
  if (draining) return;
  draining = true;
  const began = Date.now();
  console.log(`[memory-hq] ${signal}: no new connections; answering the ${admission.running + admission.waiting} requests received`);
  const force = setTimeout(() => {
    console.error(`[memory-hq] shutdown took over ${SHUTDOWN_MS} ms; exiting now`);
    process.exit(1);
  }, SHUTDOWN_MS - 500);
  server.close();
  server.closeIdleConnections();
  const answered = new Promise((resolve) => {
    allAnswered = resolve;
    if (open === 0) resolve();
  });
  // requests already waiting get their turn until the drain time runs out, then 503
  const drainTimer = setTimeout(() => admission.refuseWaiting(), DRAIN_MS);
  // what runs gets until 5 s before the deadline: storing counters and closing the database take the rest
  const lastCall = new Promise((r) => setTimeout(r, SHUTDOWN_MS - 5000 - (Date.now() - began)));
  await Promise.race([answered, lastCall]);
  clearTimeout(drainTimer);
  if (open > 0) console.error(`[memory-hq] ${open} responses still open at the deadline: closing their connections`);
  server.closeAllConnections();
  try {
    await bridge.shutdown(); // pending counters stored, database closed
    await engine?.close(); // Postgres inside PGlite shut down cleanly
  } catch (err) {
    console.error("[memory-hq] shutdown:", err);
  }
  clearTimeout(force);
  console.log(`[memory-hq] stopped in ${Date.now() - began} ms`);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
