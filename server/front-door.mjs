// What the production server (server.mjs) checks and does for a request before the app sees it:
// a well-formed Host and target, one spelling of each path, the body read in full (within its limit
// and its time) before the request takes an admission slot, and the answers it gives itself.
import http from "node:http";
import { isIPv6 } from "node:net";

/** A body a console page may be sent: pages take no uploads (the API does). */
export const PAGE_MAX_BODY_BYTES = 64 * 1024;

// RFC 3986's reg-name: unreserved, percent-encoded and sub-delims characters
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;

/**
 * Whether a Host header is `host[:port]` (RFC 9110 §7.2): a name, an IPv4 address or a bracketed IPv6
 * one, and a port of 0–65535. Anything else — a space, a lone "[", a bad escape, a port out of range,
 * a "/" or "?" that would move the path or the query the handler sees — is refused with 400.
 * An HTTP/1.0 request may have none (Node refuses an HTTP/1.1 request without one).
 */
export function validHost(host) {
  if (host === undefined) return true;
  const m = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{0,5}))?$/.exec(host);
  if (!m) return false;
  const [, name, port] = m;
  if (port && Number(port) > 65535) return false;
  if (name.startsWith("[")) return isIPv6(name.slice(1, -1));
  if (!REG_NAME.test(name)) return false;
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The request target in one spelling: `{ path, search, host }`, or null when it is none a resource can
 * have (`*`, a scheme other than http(s)). Repeated slashes are one, dot segments (`/./`, `/../`, and
 * their percent-encoded forms) are resolved as a browser resolves them, so `/./api/…`,
 * `/_next/../api/…` and `//api/…` all name `/api/…`, and no spelling of an API path skips admission.
 * An absolute target (`http://host/path`, as sent to a proxy) gives its host, which then wins over the
 * Host header (RFC 9112 §3.2.2). The query is kept as sent.
 */
export function canonicalTarget(target) {
  let pathAndQuery = target;
  let host;
  if (!target.startsWith("/")) {
    if (!/^https?:\/\//i.test(target)) return null;
    let url;
    try {
      url = new URL(target);
    } catch {
      return null;
    }
    host = url.host;
    pathAndQuery = `${url.pathname}${url.search}`;
  }
  const q = pathAndQuery.indexOf("?");
  const rawPath = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const search = q < 0 ? "" : pathAndQuery.slice(q);
  try {
    const path = new URL(rawPath.replace(/[/\\]{2,}/g, "/"), "http://localhost").pathname;
    return { path, search, host };
  } catch {
    return null;
  }
}

/** Removes headers only the server may set from a request, in its parsed and in its raw form. */
export function removeHeaders(req, names) {
  let found = false;
  for (const name of names) {
    if (name in req.headers) {
      delete req.headers[name];
      found = true;
    }
  }
  if (!found) return;
  const raw = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!names.includes(req.rawHeaders[i].toLowerCase())) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  req.rawHeaders = raw;
}

/** Whether the request has a body at all (a length above 0, or chunked). */
export const hasBody = (req) => "transfer-encoding" in req.headers || Number(req.headers["content-length"] ?? 0) > 0;

/**
 * Reads the whole body, at most `limit` bytes, within `timeoutMs`: `{ body }` (a Buffer), or
 * `{ failure }` — `too_large` (declared or sent past the limit), `timeout`, or `gone` (the client
 * disconnected first). On a failure what is left unread stays unread: answer and close.
 */
export function readBody(req, { limit, timeoutMs }) {
  if (!hasBody(req)) return Promise.resolve({ body: Buffer.alloc(0) });
  if (Number(req.headers["content-length"]) > limit) return Promise.resolve({ failure: "too_large" });
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    const finish = (outcome) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("close", onClose);
      resolve(outcome);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) return finish({ failure: "too_large" });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) });
    const onGone = () => finish({ failure: "gone" });
    const onClose = () => {
      if (!req.complete) onGone();
    };
    const timer = setTimeout(() => finish({ failure: "timeout" }), timeoutMs);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onGone);
    req.on("close", onClose);
  });
}

/**
 * The request again, its body `body` read from memory: what Next.js's request handler is given once
 * server.mjs has read the body itself (the original's stream is spent). Same socket, method, target
 * and headers.
 */
export function replayRequest(req, body) {
  const copy = new http.IncomingMessage(req.socket);
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.httpVersion = req.httpVersion;
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  if (body.length) copy.push(body);
  copy.push(null);
  // the whole message is here: destroying the copy must not take the connection with it
  copy.complete = true;
  return copy;
}

/**
 * Answers `status` with a JSON body (or plain text for a page) in one write with its length. `close`:
 * the request's body was not read (or not all of it), so the connection closes after the answer
 * (`Connection: close`): the client reads the answer, then opens a new connection for its next request.
 */
export function answer(res, status, body, { headers = {}, close = false } = {}) {
  if (res.headersSent || res.destroyed) return;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
    ...(close ? { connection: "close" } : {}),
  });
  res.end(text);
}
