import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { transport, createServerDatabase, type TestDatabase } from "../helpers/db";
import { parsePrometheusText, sampleValue } from "../helpers/prometheus-text";
import { rawExchange, startProductionServer, statuses, type ProductionServer } from "../helpers/production-server";

// API calls through the production server (server.mjs), as clients nobody here wrote make them — Node's
// fetch with keep-alive, curl, raw sockets — on the embedded database and (TEST_TRANSPORT=postgres) on
// PostgreSQL: what only the server does (its front door, admission, limits, 413/408, disconnects).
// Needs the production build: `npm test` runs it as its own step after `next build` (TEST_SERVER_BUILD=1).
const ENABLED = process.env.TEST_SERVER_BUILD === "1";
const PORTS = (process.env.TEST_SERVER_PORTS ?? "3131,3132,3133").split(",").map(Number);
const ADMIN_KEY = "server-admin-key-0123456789abcdef";
const METRICS_TOKEN = "server-metrics-token-0123456789ab";
const BODY_TIMEOUT_MS = 3000;
const ENGINES = transport === "postgres" ? (["embedded", "postgres"] as const) : (["embedded"] as const);

const SETTINGS = {
  ADMIN_API_KEY: ADMIN_KEY,
  METRICS_TOKEN,
  ADMISSION_CONCURRENCY: "2",
  BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
  HEADERS_TIMEOUT_MS: "2000",
};

/** A call as an agent's TypeScript code makes it: Node's fetch, keep-alive; a hang fails it. */
async function call(base: string, key: string | null, method: string, p: string, body?: BodyInit | object, headers: Record<string, string> = {}) {
  const raw = typeof body === "string" || body instanceof ReadableStream || body === undefined;
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: raw ? (body as BodyInit | undefined) : JSON.stringify(body),
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    signal: AbortSignal.timeout(30_000),
  } as RequestInit);
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* plain text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

async function metrics(base: string) {
  const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  return parsePrometheusText(await res.text());
}

const chunked = (bytes: number) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (let sent = 0; sent < bytes; sent += 100_000) c.enqueue(new TextEncoder().encode("x".repeat(100_000)));
      c.close();
    },
  });

describe.runIf(ENABLED).each(ENGINES)("the production server on the %s database — TEST_SERVER_BUILD=1 after next build", (engine) => {
  let server: ProductionServer;
  let database: TestDatabase | undefined;
  let base: string;
  let agent: { id: string; key: string };
  let field: { id: string; key: string };

  beforeAll(async () => {
    if (engine === "postgres") database = await createServerDatabase();
    server = await startProductionServer({ port: PORTS[engine === "embedded" ? 0 : 1]!, env: SETTINGS, databaseUrl: database?.url });
    base = server.base;
    const mk = async (input: object) => {
      const created = await call(base, ADMIN_KEY, "POST", "/api/v1/agents", { name: `Door ${Math.random().toString(36).slice(2, 8)}`, ...input });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const key = await call(base, ADMIN_KEY, "POST", `/api/v1/agents/${created.body.agent.id}/keys`, {});
      return { id: created.body.agent.id as string, key: key.body.key as string };
    };
    agent = await mk({ kind: "internal", role: "specialist" });
    const client = await call(base, ADMIN_KEY, "POST", "/api/v1/clients", { name: `Door Client ${Math.random().toString(36).slice(2, 8)}` });
    field = await mk({ kind: "field", role: "specialist", clientId: client.body.client.id });
  }, 360_000);

  afterAll(async () => {
    await server?.stop();
    await database?.close();
  }, 60_000);

  it("answers before reading a body and the client goes on: 413, 401, 403, a chunked body, a page (Node's fetch, keep-alive)", async () => {
    const ordinary = async () => expect((await call(base, agent.key, "GET", "/api/v1/agents/me")).status).toBe(200);
    const big = JSON.stringify({ name: "x".repeat(3_000_000), kind: "internal", role: "specialist" });
    const tooLarge = await call(base, ADMIN_KEY, "POST", "/api/v1/agents", big);
    expect([tooLarge.status, tooLarge.body.error.code]).toEqual([413, "payload_too_large"]);
    await ordinary();
    await ordinary();
    const badKey = await call(base, `mhq_${"0".repeat(40)}`, "POST", "/api/v1/agents", JSON.stringify({ name: "x".repeat(200_000) }));
    expect(badKey.status).toBe(401);
    await ordinary();
    const wrongRole = await call(base, field.key, "POST", "/api/v1/clients", JSON.stringify({ name: "y".repeat(900_000) }));
    expect(wrongRole.status).toBe(403);
    await ordinary();
    const stream = await call(base, ADMIN_KEY, "POST", "/api/v1/agents", chunked(3_000_000));
    expect(stream.status).toBe(413);
    await ordinary();
    const page = await call(base, null, "POST", "/dashboard", "z".repeat(3_000_000), { "content-type": "text/plain" });
    expect(page.status).toBe(413);
    await ordinary();
    // counted under their routes
    const m = await metrics(base);
    expect(sampleValue(m, "mhq_http_requests_total", { route: "/api/v1/agents", method: "POST", status: "413" })).toBe(2);
  });

  it("curl: an oversized body and then an ordinary call on one command line; Expect: 100-continue gets 413 at once", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mhq-curl-"));
    try {
      const file = path.join(dir, "big.json");
      writeFileSync(file, JSON.stringify({ message: "x".repeat(2_000_000) }));
      const run = (args: string[]) => spawnSync("curl", ["-sS", "--max-time", "30", ...args], { encoding: "utf8" });
      const auth = ["-H", `Authorization: Bearer ${agent.key}`, "-H", "Content-Type: application/json"];
      // no Expect header: the whole body is sent, then the next request goes out
      const both = run([...auth, "-H", "Expect:", "-o", "/dev/null", "-w", "%{http_code}\n", "--data-binary", `@${file}`, `${base}/api/v1/retrieve`,
        "--next", ...auth, "-o", "/dev/null", "-w", "%{http_code}\n", `${base}/api/v1/agents/me`]);
      expect(both.stderr).toBe("");
      expect(both.stdout.trim().split("\n")).toEqual(["413", "200"]);
      // curl asks first for a body this large: the refusal comes instead of 100 Continue
      const expecting = run([...auth, "-H", "Expect: 100-continue", "-D", "-", "-o", "/dev/null", "--data-binary", `@${file}`, `${base}/api/v1/retrieve`]);
      expect(expecting.stdout).not.toMatch(/100 Continue/);
      expect(expecting.stdout).toMatch(/^HTTP\/1\.1 413/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("raw sockets: Expect: 100-continue is answered with the refusal, or with 100 and then the answer", async () => {
    const head = (extra: string, length: number, key: string | null = ADMIN_KEY) =>
      `POST /api/v1/clients HTTP/1.1\r\nHost: localhost\r\n${key ? `Authorization: Bearer ${key}\r\n` : ""}Content-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n${extra}\r\n`;
    const tooLarge = await rawExchange(server.port, [head("", 3_000_000)]);
    expect(tooLarge.text).toMatch(/^HTTP\/1\.1 413 .*\r\n[\s\S]*[Cc]onnection: close/);
    expect(tooLarge.text).not.toContain("100 Continue");
    expect(tooLarge.closed).toBe(true);
    const anonymous = await rawExchange(server.port, [head("", 10_000, null)]);
    expect(statuses(anonymous.text)).toEqual([401]);
    expect(anonymous.text).toContain('"code":"unauthorized"');
    const body = JSON.stringify({ name: `Expecting ${Math.random().toString(36).slice(2, 8)}` });
    // the body goes out once 100 Continue came
    const socket = net.connect(server.port, "127.0.0.1");
    const answered = await new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (d) => {
        if (!text.includes("100 Continue\r\n\r\n") && (text + d).includes("100 Continue\r\n\r\n")) socket.write(body);
        text += d;
        if (statuses(text).length === 2 && text.includes('"client"')) resolve(text);
      });
      socket.write(head("", Buffer.byteLength(body)));
    });
    socket.destroy();
    expect(statuses(answered)).toEqual([100, 201]);
  });

  it("raw sockets: a malformed Host or target answers 400 in the API's shape; pipelining, HTTP/1.0 and conflicting lengths as Node documents", async () => {
    for (const host of ["a b", "[", "%zz", "x:99999", "x?limit=1", "x/api/v1/clients"]) {
      const r = await rawExchange(server.port, [`GET /api/v1/agents HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n\r\n`], { until: (t) => t.includes("}") });
      expect(statuses(r.text), host).toEqual([400]);
      expect(r.text, host).toContain('"code":"bad_request"');
      r.socket.destroy();
    }
    const star = await rawExchange(server.port, ["OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n"], { until: (t) => t.includes("}") });
    expect(statuses(star.text)).toEqual([400]);
    expect(star.text).toContain("application/json");
    star.socket.destroy();
    const get = (p: string) => `GET ${p} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${agent.key}\r\n\r\n`;
    const pipelined = await rawExchange(server.port, [get("/api/v1/agents/me") + get("/api/v1/agents/me/documents/working") + get("/api/v1/no-such-thing")], {
      until: (t) => statuses(t).length === 3 && /(\}|0\r\n\r\n)$/.test(t),
    });
    expect(statuses(pipelined.text)).toEqual([200, 200, 404]);
    pipelined.socket.destroy();
    const old = await rawExchange(server.port, [`GET /api/v1/agents/me HTTP/1.0\r\nAuthorization: Bearer ${agent.key}\r\n\r\n`]);
    expect(statuses(old.text)).toEqual([200]);
    expect(old.closed).toBe(true);
    const smuggled = await rawExchange(server.port, [
      `POST /api/v1/clients HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ]);
    expect(statuses(smuggled.text)).toEqual([400]);
    expect(smuggled.closed).toBe(true);
    // what Node's parser refuses before any request exists is answered in the API's shape too
    const long = await rawExchange(server.port, [`GET /api/v1/knowledge?q=${"a".repeat(70_000)} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${agent.key}\r\n\r\n`]);
    expect(statuses(long.text)).toEqual([431]);
    expect(long.text).toContain('"code":"headers_too_large"');
    expect(long.text).toMatch(/content-type: application\/json/i);
    expect(long.closed).toBe(true);
    const junk = await rawExchange(server.port, ["HELLO THERE\r\n\r\n"]);
    expect(statuses(junk.text)).toEqual([400]);
    expect(junk.text).toContain('"code":"bad_request"');
    expect(junk.closed).toBe(true);
  });

  it("takes one spelling of each path: /./api, /_next/../api, //api and %2e all wait their turn as the API", async () => {
    const waited = async () => sampleValue(await metrics(base), "mhq_admission_wait_seconds_count", { caller: "admin" });
    const before = await waited();
    for (const p of ["/./api/v1/clients", "/_next/../api/v1/clients", "//api/v1/clients", "/%2e/api/v1/clients", "/api/v1/x/%2e%2e/clients"]) {
      const r = await rawExchange(server.port, [`GET ${p} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n\r\n`], { until: (t) => t.includes("]}") });
      expect(statuses(r.text), p).toEqual([200]);
      expect(r.text, p).toContain('{"clients":[');
      r.socket.destroy();
    }
    expect((await waited()) - before).toBe(5);
  });

  it("removes the headers only the server sets from what a client sends", async () => {
    const forged = await call(base, null, "GET", "/api/health", undefined, { "x-memory-hq-queue-ms": "99999", "x-mhq-path": "/evil" });
    expect(forged.status).toBe(200);
    expect(forged.headers.get("server-timing")).toMatch(/^queue;dur=0\.0, /);
  });

  it("holds no slot for slow clients: four trickling bodies get 408 after BODY_TIMEOUT_MS while others are served", async () => {
    const login = `POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    const slow = Array.from({ length: 4 }, () => rawExchange(server.port, [login, ...Array.from({ length: 20 }, () => "{")], { gapMs: 500, waitMs: BODY_TIMEOUT_MS + 8000 }));
    await new Promise((r) => setTimeout(r, 500));
    // the slots are free: others are answered at once, nothing is running
    for (let i = 0; i < 3; i++) expect((await call(base, ADMIN_KEY, "GET", "/api/v1/clients")).status).toBe(200);
    expect(sampleValue(await metrics(base), "mhq_admission_in_flight")).toBe(0);
    for (const r of await Promise.all(slow)) {
      expect(statuses(r.text)).toEqual([408]);
      expect(r.text).toContain('"code":"request_timeout"');
      expect(r.closed).toBe(true);
    }
    // headers that never finish get Node's own 408
    const headers = await rawExchange(server.port, ["GET /api/v1/clients HTTP/1.1\r\nHost: localhost\r\n"], { waitMs: 8000 });
    expect(statuses(headers.text)).toEqual([408]);
    expect(headers.closed).toBe(true);
  });

  it("gives a quiet caller its turn beside another caller's flood, and refuses the flood past its cap of waiting requests", async () => {
    const flooding = Array.from({ length: 40 }, (_, i) => call(base, agent.key, "POST", "/api/v1/retrieve", { message: `What is the gate code ${i}?` }));
    let pending = flooding.length;
    for (const f of flooding) void f.finally(() => pending--);
    await new Promise((r) => setTimeout(r, 100));
    const quiet = await call(base, field.key, "GET", "/api/v1/agents/me");
    expect(quiet.status).toBe(200);
    // served while most of the flood still waited behind its own requests
    expect(pending).toBeGreaterThan(10);
    const answers = await Promise.all(flooding);
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([]);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.headers.get("ratelimit")).toMatch(/^"waiting";r=0;t=\d+$/);
      expect(r.headers.get("ratelimit-policy")).toContain('"waiting";q=32;');
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    const m = await metrics(base);
    expect(sampleValue(m, "mhq_admission_rejected_total", { reason: "caller_queue_full", caller: "agent" })).toBe(refused.length);
  });

  it("frees the slot of a client that disconnects mid-request and rolls its unfinished transaction back", async () => {
    const conversationId = `gone-${Math.random().toString(36).slice(2, 8)}`;
    const turns = Array.from({ length: 500 }, (_, i) => ({
      channel: "chat", direction: "inbound", conversationId, externalId: `${conversationId}-${i}`,
      content: `Turn ${i} about the boiler, the invoice and the gate: ${"words of a long message ".repeat(60)}`,
    }));
    const body = JSON.stringify({ interactions: turns });
    const socket = net.connect(server.port, "127.0.0.1");
    socket.on("error", () => {});
    socket.write(`POST /api/v1/interactions/batch HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${agent.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    socket.write(body);
    // once it runs (its body read, its slot taken), the client goes away
    const inFlight = async () => sampleValue(await metrics(base), "mhq_admission_in_flight");
    while ((await inFlight()) < 1) await new Promise((r) => setTimeout(r, 5));
    socket.destroy();
    while ((await inFlight()) > 0) await new Promise((r) => setTimeout(r, 20));
    // nothing of it was committed: the same batch sent again stores every turn anew (a stored one
    // would come back deduplicated)
    const again = await call(base, agent.key, "POST", "/api/v1/interactions/batch", body);
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(201);
    expect(again.body.interactions).toHaveLength(500);
    expect(again.body.interactions.filter((i: { deduplicated?: boolean }) => i.deduplicated)).toEqual([]);
    const m = await metrics(base);
    expect(sampleValue(m, "mhq_http_requests_total", { route: "/api/v1/interactions/batch", method: "POST", status: "499" })).toBe(1);
  }, 120_000);
});

describe.runIf(ENABLED)("the production server's shutdown after pipelined requests whose connection died — TEST_SERVER_BUILD=1", () => {
  it("accounts for every request, not every response: SIGTERM finds nothing left open and exits at once", async () => {
    const server = await startProductionServer({ port: PORTS[2]!, env: { ...SETTINGS, ADMISSION_CALLER_QUEUE: "1000", ADMISSION_CALLER_BURST: "1000" } });
    try {
      const created = await call(server.base, ADMIN_KEY, "POST", "/api/v1/agents", { name: "Pipelining agent", kind: "internal", role: "specialist" });
      const { key } = (await call(server.base, ADMIN_KEY, "POST", `/api/v1/agents/${created.body.agent.id}/keys`, {})).body;
      const retrieve = JSON.stringify({ message: "What did the customer say about the boiler?" });
      const one = `POST /api/v1/retrieve HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${retrieve.length}\r\n\r\n${retrieve}`;
      const socket = net.connect(server.port, "127.0.0.1");
      socket.on("error", () => {});
      socket.write(one.repeat(300));
      const received = async () => {
        const m = await metrics(server.base);
        return sampleValue(m, "mhq_admission_queue_length") + sampleValue(m, "mhq_admission_in_flight");
      };
      while ((await received()) < 50) await new Promise((r) => setTimeout(r, 10));
      socket.destroy();
      server.child.kill("SIGTERM");
      const { code, signal } = await server.exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // nothing waited for the deadline: no request left open, no handler still running
      expect(server.output()).not.toMatch(/at the deadline/);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe.runIf(ENABLED && transport === "postgres")("the production server on a PostgreSQL database nobody migrated yet — TEST_SERVER_BUILD=1", () => {
  it("answers 503 saying what to run (the health check too, with Retry-After), and serves once it is migrated, without a restart", async () => {
    const database = await createServerDatabase({ migrate: false });
    const server = await startProductionServer({ port: PORTS[2]!, env: SETTINGS, databaseUrl: database.url, until: "answering" });
    try {
      const health = await call(server.base, null, "GET", "/api/health");
      expect(health.status).toBe(503);
      expect(health.body.error.code).toBe("service_unavailable");
      expect(health.body.error.message).toMatch(/no Memory HQ schema yet.*npm run db:migrate/);
      expect(health.headers.get("retry-after")).toBe("5");
      const list = await call(server.base, ADMIN_KEY, "GET", "/api/v1/agents");
      expect(list.status).toBe(503);
      // the console's pages say it too, in place of a failed page
      const login = await fetch(`${server.base}/login`);
      expect(login.status).toBe(200);
      expect(await login.text()).toMatch(/waiting for its database.*npm run db:migrate/s);
      // said once in the log, not once per request
      expect(server.output().match(/no Memory HQ schema yet/g)).toHaveLength(1);

      await migrate(database.db);
      const deadline = Date.now() + 30_000;
      while ((await call(server.base, null, "GET", "/api/health")).status !== 200) {
        expect(Date.now() < deadline, "the server did not notice the migration").toBe(true);
        await new Promise((r) => setTimeout(r, 250));
      }
      const created = await call(server.base, ADMIN_KEY, "POST", "/api/v1/agents", { name: "After the migration", kind: "internal", role: "specialist" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(server.output()).toMatch(/schema is now this release's/);
    } finally {
      await server.stop();
      await database.close();
    }
  }, 120_000);
});

describe.runIf(ENABLED)("the production server whose database cannot be reached — TEST_SERVER_BUILD=1", () => {
  it("answers 503 with Retry-After (the health check too) and logs one line, not a 500 and a stack per request", async () => {
    // nothing listens on port 1
    const server = await startProductionServer({ port: PORTS[2]!, env: SETTINGS, databaseUrl: "postgres://memory:hq@127.0.0.1:1/memory", until: "answering" });
    try {
      for (const [key, p] of [[null, "/api/health"], [ADMIN_KEY, "/api/v1/agents"], [ADMIN_KEY, "/api/v1/knowledge?q=heater"]] as const) {
        const res = await call(server.base, key, "GET", p);
        expect([p, res.status, res.body?.error?.code]).toEqual([p, 503, "service_unavailable"]);
        expect(res.body.error.message).toMatch(/database cannot be reached.*try again/);
        expect(res.headers.get("retry-after")).toBe("5");
      }
      // the console's pages say so in place of a failed page
      const login = await fetch(`${server.base}/login`);
      expect(login.status).toBe(200);
      expect(await login.text()).toMatch(/waiting for its database.*cannot be reached just now/s);
      expect(server.output().match(/the database cannot be reached \(ECONNREFUSED/g)).toHaveLength(1);
      expect(server.output()).not.toMatch(/Something went wrong|failed: Error/);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
