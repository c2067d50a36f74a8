// The production server (`npm start`, `npm run serve`): Node's HTTP server in front of Next.js's
// request handler, so that
// - a request is checked before the app sees it: a malformed Host or target gets 400, the path is
//   taken in one spelling (`/./api/…` is `/api/…`), the headers only this server sets are removed
//   from what the client sent (server/front-door.mjs);
// - an API request's body is read in full — within its route's limit (413 past it) and BODY_TIMEOUT_MS
//   (408) — before it takes an admission slot, so a slow or oversized upload holds no slot and no
//   database time; an answer given before the body was read closes the connection cleanly;
//   `Expect: 100-continue` is answered with the refusal instead of 100 when the request would be refused;
// - every API request but GET /api/health and /api/metrics then takes its turn in admission control:
//   fair turns per caller, per-caller limits (server/admission.mjs, the same instance the app uses);
// - an API call with a bearer key is handed straight to its route handler (server/direct.mjs) unless
//   API_DIRECT=false; everything else goes through Next.js's request handler;
// - console pages take no large bodies (64 KB) and never wait in the queue;
// - every request is accounted for until its answer is written or its connection is gone (a
//   pipelined request whose connection died included), a caller that disconnects frees its slot and
//   aborts its request (its unfinished transaction rolls back), and idle keep-alive connections are
//   bounded in time and number;
// - the embedded database (no DATABASE_URL) runs in a thread of its own (server/engine/index.mjs),
//   reached over the Postgres wire protocol, instead of on the thread that answers requests;
// - SIGTERM/SIGINT shut down gracefully: stop accepting, answer every request already received (those
//   still waiting for a turn when the drain time runs out get 503; an API call with a bearer key still
//   running 8 s before the deadline is stopped, its transaction rolled back, and answered 503), store
//   pending counters, close the database, exit — within SHUTDOWN_TIMEOUT_MS (default 30 s).
// Settings: PORT (3000), HOST (0.0.0.0), or `-p PORT -H HOST`; everything else as for the app.
import http from "node:http";
import path from "node:path";
import { ENGINE_SOCKET_ENV, SEAM_GLOBALS, SEAM_HEADERS, SERVER_STOPPING, UNMATCHED_ROUTE } from "./server/seam.mjs";
import { answer, canonicalTarget, hasBody, PAGE_MAX_BODY_BYTES, readBody, removeHeaders, replayRequest, validHost } from "./server/front-door.mjs";

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
/** what runs gets until this long after the signal; storing counters and closing the database take the rest */
const LAST_CALL_MS = SHUTDOWN_MS - 5000;
/**
 * route handlers still running this long after the signal are stopped (their transactions roll back)
 * and answered 503, so that their callers hear it before the last call closes every connection
 */
const STOP_RUNNING_MS = Math.max(DRAIN_MS, LAST_CALL_MS - 3000);
const INTERNAL_HEADERS = Object.values(SEAM_HEADERS);
/** how long a refusal of a caller over its own limits is held back (see holdRefusal), and how many at once */
const HOLD_REFUSAL_MS = 1000;
const MAX_HELD_REFUSALS = 1000;
let heldRefusals = 0;

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
const admission = bridge.admission();
const door = bridge.frontDoor();
/** bearer-key API calls straight to their route handler (server/direct.mjs), unless API_DIRECT=false */
let direct = null;
if (bridge.directApi()) {
  try {
    const { createDirectRoutes } = await import("./server/direct.mjs");
    const { NextRequest } = await import("next/server.js");
    const distDir = path.join(path.dirname(new URL(import.meta.url).pathname), process.env.NEXT_DIST_DIR || ".next");
    direct = createDirectRoutes({ distDir, routeTemplate: bridge.routeTemplate, makeRequest: (url, init) => new NextRequest(url, init) });
  } catch (err) {
    console.error(`[memory-hq] every API call goes through Next.js: the build's route list could not be read (${err instanceof Error ? err.message : err})`);
  }
}

let draining = false;
/** requests received and not yet answered (or whose connection is gone) */
let open = 0;
/** route handlers still running, a gone client's included (its work stops at its next statement) */
let handling = 0;
/** how to stop each bearer-key call's handler still running (server/direct.mjs serves them) */
const stoppable = new Set();
let allAnswered = () => {};
const settled = () => {
  if (open === 0 && handling === 0) allAnswered();
};

// Connections: each one's requests in progress and what to do when it closes; the idle ones (no
// request in progress) in the order they became idle, at most MAX_IDLE_CONNECTIONS of them.
const ON_CLOSE = Symbol("onClose");
const IN_PROGRESS = Symbol("inProgress");
const idle = new Map();
function markIdle(socket) {
  if (socket.destroyed) return;
  idle.set(socket, true);
  if (idle.size > door.maxIdleConnections) {
    const [oldest] = idle.keys();
    idle.delete(oldest);
    oldest.destroy();
  }
}

/** Calls `fn` once the request is over: its answer written, or its connection gone. */
function whenOver(req, res, fn) {
  let done = false;
  const over = () => {
    if (done) return;
    done = true;
    req.socket[ON_CLOSE]?.delete(over);
    fn();
  };
  res.once("finish", over);
  res.once("close", over);
  // a pipelined request's answer waits for the ones before it: if the connection dies first, it
  // never gets a socket and never emits close
  req.socket[ON_CLOSE]?.add(over);
  return over;
}

/** Calls `fn` when the answer's head is written (once). */
function onHead(res, fn) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (draining && !res.headersSent) res.setHeader("connection", "close");
    fn();
    return writeHead.apply(this, args);
  };
}

function record(pathname, method, status, arrived) {
  bridge.recordHttpRequest(bridge.routeTemplate(pathname) ?? UNMATCHED_ROUTE, method, status, (performance.now() - arrived) / 1000);
}

/**
 * The API's JSON error (or, for a page, its plain-text form) from the front door. `unread`: the request
 * whose body was not read (or not all of it). The answer goes out at once and the rest of the body is
 * read and dropped as it comes, so the client — which may still be sending — reads the answer and can
 * go on on the same connection; a body still not in after BODY_TIMEOUT_MS closes the connection.
 * (Closing at once instead would reset a connection the client is still writing to, and the client
 * might lose the answer with it.)
 */
function refuse(res, api, status, code, message, { unread, ...options } = {}) {
  answer(res, status, api ? bridge.errorBody(code, message) : `${message}\n`, options);
  if (unread && hasBody(unread) && !unread.complete) dropRest(unread);
}

function dropRest(req) {
  req.resume();
  const timer = setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, door.bodyTimeoutMs);
  const stop = () => clearTimeout(timer);
  req.once("end", stop);
  req.once("close", stop);
}

const FAILED_BODY = {
  too_large: (limit) => [413, "payload_too_large", `The body is larger than the limit of ${limit} bytes`],
  timeout: () => [408, "request_timeout", `The request did not arrive within ${door.bodyTimeoutMs} ms; send it again`],
};

async function onRequest(req, res, expectsContinue) {
  const arrived = performance.now();
  removeHeaders(req, INTERNAL_HEADERS); // only this server and the app set them
  const socket = req.socket;
  socket[IN_PROGRESS] = (socket[IN_PROGRESS] ?? 0) + 1;
  idle.delete(socket);
  open += 1;
  whenOver(req, res, () => {
    open -= 1;
    settled();
    if (--socket[IN_PROGRESS] === 0) markIdle(socket);
  });
  onHead(res, () => {});
  const method = req.method ?? "GET";

  if (!validHost(req.headers.host)) {
    return refuse(res, true, 400, "bad_request", "The Host header is not a valid host[:port]", { unread: req });
  }
  const target = canonicalTarget(req.url ?? "/");
  if (!target) return refuse(res, true, 400, "bad_request", "The request target must be a path (such as /api/v1/agents)", { unread: req });
  if (target.host) req.headers.host = target.host;
  req.url = `${target.path}${target.search}`;
  const pathname = target.path;
  const api = pathname.startsWith("/api/");
  const queued = api && bridge.waitsForTurn(pathname);

  if (draining) {
    // a request on a connection kept open from before the shutdown: not started, so refused
    refuse(res, api, 503, "service_unavailable", "The server is shutting down; retry", { headers: { "retry-after": "1" }, close: true });
    if (api) record(pathname, method, 503, arrived);
    return;
  }
  if (!queued) {
    // pages, health and metrics: no turn to wait for; a page takes no upload
    const limit = api ? door.maxBodyBytes : PAGE_MAX_BODY_BYTES;
    if (expectsContinue && Number(req.headers["content-length"]) > limit) return refuse(res, api, 413, "payload_too_large", `The body is larger than the limit of ${limit} bytes`, { close: true });
    if (expectsContinue) res.writeContinue();
    const read = await readBody(req, { limit, timeoutMs: door.bodyTimeoutMs });
    if (read.failure) return failedBody(req, res, api, read.failure, limit, pathname, method, arrived);
    return serve(read.body.length ? replayRequest(req, read.body) : req, res);
  }

  const ticket = admission.arrive(bridge.callerOf(req.headers, socket.remoteAddress));
  if (ticket.refusal) {
    const { status, code, message, headers } = ticket.refusal;
    record(pathname, method, status, arrived);
    return holdRefusal(req, res, ticket.refusal, () => refuse(res, true, status, code, message, { headers, unread: req }));
  }
  const leave = whenOver(req, res, () => ticket.end());
  const limit = bridge.bodyLimit(method, pathname);
  if (expectsContinue) {
    // refused anyway: say so instead of asking for the body
    const early = Number(req.headers["content-length"]) > limit
      ? { status: 413, body: bridge.errorBody("payload_too_large", `The body is larger than the limit of ${limit} bytes`), headers: {} }
      : bridge.refusalBeforeBody(method, pathname, req.headers);
    if (early) {
      answer(res, early.status, early.body, { headers: early.headers, close: true });
      record(pathname, method, early.status, arrived);
      return leave();
    }
    res.writeContinue();
  }
  const read = await readBody(req, { limit, timeoutMs: door.bodyTimeoutMs });
  if (read.failure) {
    leave();
    return failedBody(req, res, true, read.failure, limit, pathname, method, arrived);
  }
  ticket.wait(
    (queueMs) => {
      if (socket.destroyed) return leave(); // the client left as its turn came
      req.headers[SEAM_HEADERS.queueMs] = queueMs;
      // the slot is free once the answer's head is written (a streamed body may take longer), the
      // handler is done, or the client is gone
      onHead(res, () => ticket.end());
      const served = direct && /^Bearer\s/i.test(req.headers.authorization ?? "")
        ? serveDirect(req, res, method, pathname, read.body)
        : serve(read.body.length ? replayRequest(req, read.body) : req, res);
      served.finally(() => ticket.end());
    },
    (refusal) => {
      refuse(res, true, refusal.status, refusal.code, refusal.message, { headers: refusal.headers, close: refusal.status === 503 });
      record(pathname, method, refusal.status, arrived);
    },
  );
}

/**
 * A caller over its own limits gets its 429 after a pause of up to a second (never past its
 * Retry-After): a runaway loop that sends again at once then sends about one request a second per
 * connection instead of thousands, and its refusals cost the server next to nothing. At most
 * MAX_HELD_REFUSALS wait at once; past that they are answered at once.
 */
function holdRefusal(req, res, refusal, answerNow) {
  if (refusal.reason !== "rate_limited" && refusal.reason !== "caller_queue_full") return answerNow();
  if (heldRefusals >= MAX_HELD_REFUSALS) return answerNow();
  heldRefusals += 1;
  let held = true;
  const release = () => {
    if (!held) return false;
    held = false;
    heldRefusals -= 1;
    clearTimeout(timer);
    return true;
  };
  const timer = setTimeout(() => release() && answerNow(), Math.min(HOLD_REFUSAL_MS, refusal.retryAfter * 1000));
  whenOver(req, res, release);
}

function failedBody(req, res, api, failure, limit, pathname, method, arrived) {
  if (failure === "gone") {
    // nobody is left to answer; counted as nginx's 499 "client closed request"
    if (api) record(pathname, method, 499, arrived);
    return;
  }
  const [status, code, message] = FAILED_BODY[failure](limit);
  // past the limit: the rest is read and dropped; out of time: the connection is closed
  refuse(res, api, status, code, message, failure === "too_large" ? { unread: req } : { close: true });
  if (api) record(pathname, method, status, arrived);
}

function serve(req, res) {
  const work = handle(req, res).catch((err) => failed(res, err));
  if (!STATIC_FILES.test(req.url ?? "")) return handled(work);
  // Next.js's handler of a build file never settles when its client leaves mid-file; the file reads
  // no database, so it counts among the running handlers only until its answer is over, sent or not
  return handled(Promise.race([work, new Promise((resolve) => whenOver(req, res, resolve))]));
}

/** The build's own files (scripts, styles, fonts): served from disk, never touching the database. */
const STATIC_FILES = /^\/_next\/static\//;

/** Counts `work` among the handlers running until it settles: shutdown closes the database only after. */
function handled(work) {
  handling += 1;
  return work.finally(() => {
    handling -= 1;
    settled();
  });
}

/** A bearer-key call its route handler answers itself; anything it does not serve, Next.js serves. */
async function serveDirect(req, res, method, pathname, body) {
  try {
    const found = await direct.lookup(method, pathname);
    if (!found) return await serve(body.length ? replayRequest(req, body) : req, res);
    // the handler's work stops (its transaction rolls back) if the client leaves before its answer
    const gone = new AbortController();
    whenOver(req, res, () => {
      if (!res.writableFinished) gone.abort();
    });
    // at shutdown, a handler that would run past the last call is stopped the same way, with its caller told
    const stop = () => gone.abort(SERVER_STOPPING);
    stoppable.add(stop);
    await handled(direct.serve(req, res, found, body, gone.signal)).finally(() => stoppable.delete(stop));
  } catch (err) {
    failed(res, err);
  }
}

/** An error outside any route handler (routing, rendering): the API's 500, with a request id in the log and the answer. */
function failed(res, err) {
  if (!res.headersSent) answer(res, 500, bridge.failure(err));
  else res.destroy();
}

const server = http.createServer(
  {
    headersTimeout: door.headersTimeoutMs,
    // bodies are timed here (BODY_TIMEOUT_MS, answered 408 in the API's shape), from the moment their headers are in
    requestTimeout: 0,
    // how often Node checks the headers timeout (its default, 30 s, would let a slow client hold on 3× longer)
    connectionsCheckingInterval: Math.min(1000, door.headersTimeoutMs),
  },
  (req, res) => void onRequest(req, res, false),
);
server.on("checkContinue", (req, res) => void onRequest(req, res, true));

// What Node's parser refuses before any request exists — a request line and headers past its size
// limit, bytes that are not HTTP/1.1, headers slower than the headers timeout — is answered in the
// API's JSON shape (Node's own answer has no body), and the connection closes.
const PARSER_REFUSALS = {
  HPE_HEADER_OVERFLOW: [431, "headers_too_large", `The request line and headers are larger than the limit of ${Math.round(http.maxHeaderSize / 1024)} KB; send a shorter address or fewer headers`],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout", "The request's headers did not arrive in time; send it again"],
};
server.on("clientError", (err, socket) => {
  // mid-answer on this connection (a pipelined request broke), or nobody left to read: just close
  if (err.code === "ECONNRESET" || !socket.writable || socket[IN_PROGRESS] > 0) return socket.destroy();
  const [status, code, message] = PARSER_REFUSALS[err.code] ?? [400, "bad_request", "The request is not valid HTTP/1.1"];
  const body = JSON.stringify(bridge.errorBody(code, message));
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
});
server.on("connection", (socket) => {
  socket[ON_CLOSE] = new Set();
  socket[IN_PROGRESS] = 0;
  markIdle(socket);
  socket.once("close", () => {
    idle.delete(socket);
    // the last request first: a pipelined request still waiting leaves the queue before the slot of
    // one running before it is freed (and handed on)
    for (const fn of [...socket[ON_CLOSE]].reverse()) fn();
  });
});
server.keepAliveTimeout = door.keepAliveTimeoutMs;

server.listen(port, host, () => {
  console.log(`Memory HQ listening on http://${host}:${port} (database: ${engine ? "embedded, in its own thread" : "DATABASE_URL"})`);
});

/** "1 request", "3 requests" */
const counted = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

async function shutdown(signal) {
  if (draining) return;
  draining = true;
  const began = Date.now();
  console.log(`[memory-hq] ${signal}: no new connections; answering the ${counted(open, "request")} received`);
  const force = setTimeout(() => {
    console.error(`[memory-hq] shutdown took over ${SHUTDOWN_MS} ms; exiting now`);
    process.exit(1);
  }, SHUTDOWN_MS - 500);
  server.close();
  server.closeIdleConnections();
  // every request answered (or its client gone) and every handler done, a gone client's included:
  // the counters are then stored and the database closed with nothing else running on it
  const answered = new Promise((resolve) => {
    allAnswered = resolve;
    settled();
  });
  // requests already waiting get their turn until the drain time runs out, then 503
  const drainTimer = setTimeout(() => admission.refuseWaiting(), DRAIN_MS);
  // handlers still running then (a long batch import) stop at their next statement and answer 503
  const stopTimer = setTimeout(() => {
    if (stoppable.size) console.error(`[memory-hq] stopping the ${counted(stoppable.size, "request")} still running: each is answered 503`);
    for (const stop of stoppable) stop();
  }, STOP_RUNNING_MS);
  const lastCall = new Promise((r) => setTimeout(r, LAST_CALL_MS - (Date.now() - began)));
  await Promise.race([answered, lastCall]);
  clearTimeout(drainTimer);
  clearTimeout(stopTimer);
  if (open > 0) console.error(`[memory-hq] ${counted(open, "request")} still unanswered at the deadline: closing their connections`);
  else if (handling > 0) console.error(`[memory-hq] ${counted(handling, "handler")} of requests whose clients left still running at the deadline`);
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
