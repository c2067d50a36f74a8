#!/usr/bin/env node
// memory-hq-mcp — a stdio MCP server for clients that start MCP servers as a process (Claude Desktop,
// Cursor, …). It forwards every JSON-RPC message it reads on stdin to a Memory HQ server's Streamable
// HTTP endpoint (POST /api/mcp) with the agent's key, and writes the server's answers to stdout.
//
//   MEMORY_HQ_URL   the server's base URL, e.g. https://memory.example.com (default http://localhost:3000)
//   MEMORY_HQ_KEY   the agent's key, mhq_…
//
// Tools, resources, prompts and every answer are the server's: the bridge adds nothing and keeps no
// state but the session id and protocol version the server gave. Node.js built-ins only.
import { createInterface } from "node:readline";

const log = (message) => process.stderr.write(`memory-hq-mcp: ${message}\n`);
const fail = (message) => {
  log(message);
  process.exit(1);
};

const base = process.env.MEMORY_HQ_URL || "http://localhost:3000";
const key = process.env.MEMORY_HQ_KEY;
if (!key) fail("set MEMORY_HQ_KEY to the agent's key (mhq_…)");

let endpoint;
try {
  endpoint = new URL("/api/mcp", base);
} catch {
  fail(`MEMORY_HQ_URL is not a URL: ${base}`);
}

let sessionId;
let protocolVersion;
const pending = new Set();

const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

/** A JSON-RPC error answer to each request among `messages` (notifications get none). */
function answerWithError(messages, code, message, data) {
  for (const m of messages) if (m && m.id !== undefined && m.method) write({ jsonrpc: "2.0", id: m.id, error: { code, message, ...(data ? { data } : {}) } });
}

/** The JSON-RPC messages of a `text/event-stream` body: each event's `data:` lines. */
function sseMessages(text) {
  const out = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data) out.push(JSON.parse(data));
  }
  return out;
}

async function forward(line) {
  let parsed;
  try {
    parsed = JSON.parse(line);
  } catch {
    write({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  let res;
  try {
    res = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${key}`,
        ...(sessionId ? { "mcp-session-id": sessionId } : {}),
        ...(protocolVersion ? { "mcp-protocol-version": protocolVersion } : {}),
      },
      body: line,
    });
  } catch (err) {
    const reason = err instanceof Error ? (err.cause?.message ?? err.message) : String(err);
    log(`cannot reach ${endpoint.href}: ${reason}`);
    answerWithError(messages, -32000, `Memory HQ is not reachable at ${endpoint.href}: ${reason}`);
    return;
  }
  sessionId = res.headers.get("mcp-session-id") ?? sessionId;
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  let answers = [];
  try {
    if (type.includes("text/event-stream")) answers = sseMessages(text);
    else if (text) {
      const body = JSON.parse(text);
      answers = Array.isArray(body) ? body : [body];
    }
  } catch {
    answers = [];
  }
  const rpc = answers.filter((a) => a && a.jsonrpc === "2.0");
  if (!res.ok && rpc.length === 0) {
    // the API's own error ({error: {code, message}}): a refused key, a body too large, a full queue
    const error = answers[0]?.error;
    const reason = `${res.status} ${error?.code ?? res.statusText}${error?.message ? `: ${error.message}` : ""}`;
    log(`cannot reach ${endpoint.href} as this agent: ${reason}`);
    answerWithError(messages, -32000, `Memory HQ answered ${reason}`, error);
    // a key the server refuses will not start working: stop, so the client shows the message
    if (res.status === 401 || res.status === 403) {
      process.exitCode = 1;
      process.stdout.write("", () => process.exit(1));
    }
    return;
  }
  for (const a of rpc) {
    if (a.result && typeof a.result.protocolVersion === "string") protocolVersion = a.result.protocolVersion;
    write(a);
  }
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", (line) => {
  if (!line.trim()) return;
  const p = forward(line).catch((err) => log(err instanceof Error ? err.message : String(err)));
  pending.add(p);
  void p.finally(() => pending.delete(p));
});
input.on("close", async () => {
  await Promise.allSettled([...pending]);
  process.exit();
});
