import net from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrometheusText, sampleValue } from "../helpers/prometheus-text";
import { startProductionServer, type ProductionServer } from "../helpers/production-server";

// server.mjs hands an API call with a bearer key straight to its route handler (server/direct.mjs)
// instead of through Next.js's request handler. The same calls, made against two servers of one build
// — one as shipped, one with API_DIRECT=false, which sends every request through Next.js's request
// handler (its proxy and routing) — must get the same answers: status, the headers a client reads, and
// the body (ids, keys, times and durations aside). Needs the production build:
// `npm test` runs it as its own step after `next build` (TEST_SERVER_BUILD=1); elsewhere it is skipped.
const ENABLED = process.env.TEST_SERVER_BUILD === "1";
const PORTS = (process.env.TEST_DIRECT_PORTS ?? "3127,3128").split(",").map(Number);
const ADMIN_KEY = "direct-admin-key-0123456789abcdef";
const MAX_BODY_BYTES = 20_000;

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
  bytes: Buffer;
}

const READ_HEADERS = ["content-type", "content-disposition", "www-authenticate", "allow", "retry-after", "cache-control"];

async function call(base: string, key: string | null, method: string, p: string, init: { body?: unknown; raw?: string; type?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  let body: string | undefined;
  if (init.raw !== undefined) {
    body = init.raw;
    headers["content-type"] = init.type ?? "application/json";
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] = "application/json";
  }
  const res = await fetch(`${base}${p}`, { method, headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get("content-type") ?? "";
  let parsed: unknown = null;
  if (type.includes("json") && bytes.length) parsed = JSON.parse(bytes.toString("utf8"));
  else if (type.startsWith("text/")) parsed = bytes.toString("utf8");
  return { status: res.status, headers: Object.fromEntries([...READ_HEADERS, "content-length", "vary", "server-timing"].map((h) => [h, res.headers.get(h)])), body: parsed, bytes };
}

/** What differs between two runs of the same calls: ids, keys, times, durations. */
function normalise(value: unknown): unknown {
  if (typeof value === "string") {
    return value
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>")
      .replace(/mhq_[A-Za-z0-9_-]+/g, "<key>")
      .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?/g, "<time>")
      .replace(/request [0-9a-f-]+/g, "request <id>");
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, /(^|[a-z])(tookMs|ms|Ms|prefix)$/.test(k) || k === "tookMs" ? "<n>" : normalise(v)]),
    );
  }
  return value;
}

/** Sends a request's head and half its body, then closes the connection: a client gone mid-body. */
function abandonMidBody(port: number, key: string, path: string) {
  return new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 400\r\n\r\n{"channel":"sms","direction":"inb`,
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 200);
    });
    socket.on("error", reject);
  });
}

const SETTINGS = { ADMIN_API_KEY: ADMIN_KEY, MAX_BODY_BYTES: String(MAX_BODY_BYTES) };
let servers: ProductionServer[] = [];

/** The same script of calls against one server: every answer, in order, named. */
async function script(base: string): Promise<[string, Answer][]> {
  const out: [string, Answer][] = [];
  const at = async (name: string, a: Promise<Answer>) => {
    const answer = await a;
    out.push([name, answer]);
    return answer;
  };
  const client = await at("create client", call(base, ADMIN_KEY, "POST", "/api/v1/clients", { body: { name: "Direct Plumbing" } }));
  const clientId = (client.body as { client: { id: string } }).client.id;
  const agent = await at("create agent", call(base, ADMIN_KEY, "POST", "/api/v1/agents", { body: { name: "Direct Field", kind: "field", role: "specialist", clientId } }));
  const agentId = (agent.body as { agent: { id: string } }).agent.id;
  const issued = await at("issue key", call(base, ADMIN_KEY, "POST", `/api/v1/agents/${agentId}/keys`, { body: { label: "direct" } }));
  const key = (issued.body as { key: string }).key;
  await at("agent by id (a dynamic segment)", call(base, ADMIN_KEY, "GET", `/api/v1/agents/${agentId}`));
  await at("agent list with a query", call(base, ADMIN_KEY, "GET", "/api/v1/agents?limit=1"));
  await at("write a memory", call(base, key, "POST", "/api/v1/agents/me/memories", { body: { tier: "learning", category: "insight", title: "The side gate code is 4512", confidence: 0.8 } }));
  await at("retrieve", call(base, key, "POST", "/api/v1/retrieve", { body: { message: "What is the side gate code?" } }));
  await at("invalid body (422)", call(base, key, "POST", "/api/v1/retrieve", { body: { message: 7 } }));
  await at("not JSON (415)", call(base, key, "POST", "/api/v1/retrieve", { raw: "message=hi", type: "application/x-www-form-urlencoded" }));
  await at("malformed JSON", call(base, key, "POST", "/api/v1/retrieve", { raw: "{\"message\":" }));
  await at("too large (413)", call(base, key, "POST", "/api/v1/retrieve", { raw: JSON.stringify({ message: "x".repeat(MAX_BODY_BYTES) }) }));
  await at("static segment over a dynamic one", call(base, ADMIN_KEY, "GET", "/api/v1/knowledge/tags"));
  await at("a dynamic segment that is no id", call(base, ADMIN_KEY, "GET", "/api/v1/knowledge/not-an-id"));
  await at("an escaped segment", call(base, key, "GET", "/api/v1/agents/me/documents/work%69ng"));
  await at("a document written", call(base, key, "PUT", "/api/v1/agents/me/documents/working", { body: { content: "Gate code moved to the notes." } }));
  await at("a document read", call(base, key, "GET", "/api/v1/agents/me/documents/working"));
  await at("a key nobody issued (401)", call(base, "mhq_" + "0".repeat(40), "GET", "/api/v1/agents/me/boot"));
  await at("a permission the role lacks (403)", call(base, key, "GET", "/api/v1/audit"));
  await at("a streamed CSV", call(base, ADMIN_KEY, "GET", "/api/v1/audit/export"));
  await at("OPTIONS (Next.js)", call(base, key, "OPTIONS", "/api/v1/retrieve"));
  await at("HEAD (Next.js)", call(base, ADMIN_KEY, "HEAD", "/api/v1/agents"));
  await at("a path with a trailing slash (Next.js)", call(base, ADMIN_KEY, "GET", "/api/v1/agents/"));
  return out;
}

describe.runIf(ENABLED)("bearer-key API calls straight to the route handler (server.mjs) — TEST_SERVER_BUILD=1 after next build", () => {
  let direct: [string, Answer][];
  let throughNext: [string, Answer][];

  beforeAll(async () => {
    servers = [
      await startProductionServer({ port: PORTS[0]!, env: SETTINGS }),
      // every request through Next.js's request handler
      await startProductionServer({ port: PORTS[1]!, env: { ...SETTINGS, API_DIRECT: "false" } }),
    ];
    direct = await script(servers[0]!.base);
    throughNext = await script(servers[1]!.base);
  }, 360_000);

  afterAll(async () => {
    for (const s of servers) await s.stop();
  }, 80_000);

  it("answers every call as Next.js's request handler does", () => {
    expect(direct.map(([name]) => name)).toEqual(throughNext.map(([name]) => name));
    for (let i = 0; i < direct.length; i++) {
      const [name, a] = direct[i]!;
      const b = throughNext[i]![1];
      const view = (x: Answer) => ({
        status: x.status,
        headers: Object.fromEntries(READ_HEADERS.map((h) => [h, x.headers[h]])),
        body: normalise(x.body),
      });
      expect(view(a), name).toEqual(view(b));
    }
    // the script reached each kind of answer
    expect(direct.map(([, a]) => a.status)).toEqual(expect.arrayContaining([200, 201, 401, 403, 404, 413, 415, 422]));
  });

  it("writes a JSON answer in one piece with its length, and streams a longer body", () => {
    const byName = new Map(direct.map(([name, a]) => [name, a]));
    const retrieved = byName.get("retrieve")!;
    expect(retrieved.status).toBe(200);
    expect(Number(retrieved.headers["content-length"])).toBe(retrieved.bytes.length);
    // Next.js's own answers vary by its router headers and go out chunked; these did not pass through it
    expect(retrieved.headers.vary).toBeNull();
    expect(retrieved.headers["server-timing"]).toMatch(/^queue;dur=[\d.]+, app;dur=[\d.]+$/);
    expect(throughNext.find(([name]) => name === "retrieve")![1].headers.vary).toMatch(/rsc/);
    // the audit export is a stream of CSV rows: the same rows either way
    const csv = byName.get("a streamed CSV")!;
    expect(csv.status).toBe(200);
    expect(String(csv.body).split("\n")[0]).toMatch(/^"?\w/);
    // OPTIONS and HEAD are Next.js's own answers on both servers
    expect(byName.get("OPTIONS (Next.js)")!.headers.allow).toContain("POST");
  });

  it("streams a backup as it comes (the embedded database's snapshot)", async () => {
    const res = await fetch(`${servers[0]!.base}/api/v1/admin/backup`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    // a whole gzip member (a cut stream would not inflate)
    expect(gunzipSync(bytes).length).toBeGreaterThan(bytes.length);
  });

  it("answers HEAD on the backup with its headers only: no backup taken, none audited", async () => {
    for (const s of servers) {
      const audited = async () =>
        ((await (await fetch(`${s.base}/api/v1/audit?action=database.backup`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json()) as { entries: unknown[] }).entries.length;
      const before = await audited();
      const head = await fetch(`${s.base}/api/v1/admin/backup`, { method: "HEAD", headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-disposition")).toMatch(/^attachment; filename="memory-hq-backup-.*\.tar\.gz"$/);
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      expect(await audited()).toBe(before);
    }
  });

  it("counts a client gone mid-body as its abort (499), never a 500, and logs no internal error", async () => {
    for (const s of servers) {
      const made = await call(s.base, ADMIN_KEY, "POST", "/api/v1/agents", { body: { name: "Gone Midway", kind: "internal", role: "specialist" } });
      const agentId = (made.body as { agent: { id: string } }).agent.id;
      const key = ((await call(s.base, ADMIN_KEY, "POST", `/api/v1/agents/${agentId}/keys`, { body: {} })).body as { key: string }).key;
      const logged = s.output().length;
      await abandonMidBody(s.port, key, "/api/v1/interactions");
      // the server notices the closed connection on its own time
      const deadline = Date.now() + 5000;
      let families = new Map() as ReturnType<typeof parsePrometheusText>;
      const count = (status: string) => sampleValue(families, "mhq_http_requests_total", { route: "/api/v1/interactions", method: "POST", status });
      do {
        await new Promise((r) => setTimeout(r, 100));
        families = parsePrometheusText(await (await fetch(`${s.base}/api/metrics`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).text());
      } while (count("499") === 0 && Date.now() < deadline);
      expect(count("499"), s.base).toBe(1);
      expect(count("500"), s.base).toBe(0);
      expect(s.output().slice(logged), s.base).not.toMatch(/failed|internal|Error/);
    }
  });

  it("counts direct calls in the request metrics under their route template", async () => {
    const metrics = await fetch(`${servers[0]!.base}/api/metrics`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    const families = parsePrometheusText(await metrics.text());
    const count = (route: string, method: string, status: string) => sampleValue(families, "mhq_http_requests_total", { route, method, status });
    expect(count("/api/v1/retrieve", "POST", "200")).toBe(1);
    expect(count("/api/v1/retrieve", "POST", "422")).toBe(1);
    expect(count("/api/v1/agents/{agentId}", "GET", "200")).toBe(1);
  });
});
