import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, type ApiResponse } from "../helpers/api";
import { createAgent, createClient } from "../helpers/fixtures";
import { TEST_ADMIN_KEY } from "../helpers/setup-env";
import type { AnyContract } from "@/lib/http/contract";
import { ALL_CONTRACTS } from "@/lib/contracts";
import { MAX_JSON_DEPTH } from "@/lib/http/input-guards";

// The boundary refuses what Postgres cannot store or a recursive walker cannot survive, on every
// endpoint, with 422 before any handler runs: NUL in a body string, a body key or a query
// parameter, a lone surrogate in a body string or key (not Unicode: it would be stored as U+FFFD),
// JSON nested thousands of levels deep, impossible cursor timestamps. Routes that take no body
// refuse one under the same limits. The cases come from the OpenAPI operations.

const ENDPOINTS = ALL_CONTRACTS;
let keys: (string | null)[] = [];

beforeAll(async () => {
  const client = await createClient();
  const internal = await createAgent({ kind: "internal", role: "manager", kbAccess: "write" });
  const field = await createAgent({ kind: "field", role: "manager", clientId: client.id });
  // the first caller the endpoint lets in: public, the admin key, an internal agent, a field agent
  keys = [null, TEST_ADMIN_KEY, internal.key, field.key];
});

const concrete = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => (name === "type" ? "soul" : name === "key" ? "budget" : randomUUID()));

interface Call {
  query?: string;
  rawBody?: string;
  contentType?: string;
}

/** Sends `call` as each candidate caller until one is let in (not 401/403), and answers that response. */
async function send(e: AnyContract, call: Call): Promise<ApiResponse> {
  const path = concrete(e.path) + (call.query ?? "");
  let last: ApiResponse | undefined;
  const candidates = e.permission === null ? [null] : keys.slice(1);
  for (const key of candidates) {
    last = await api(e.method, path, {
      key,
      rawBody: call.rawBody,
      headers: call.rawBody !== undefined ? { "content-type": call.contentType ?? "application/json" } : {},
    });
    if (last.status !== 401 && last.status !== 403) return last;
  }
  return last!;
}

const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);

type Case = { name: string; endpoint: AnyContract; call: Call; code: string; status?: number };

function cases(): Case[] {
  const out: Case[] = [];
  for (const e of ENDPOINTS) {
    const label = `${e.method} ${e.path}`;
    if (e.body) {
      out.push(
        { name: `${label}: NUL in a string field`, endpoint: e, call: { rawBody: JSON.stringify({ title: "a\u0000b" }) }, code: "nul_character" },
        { name: `${label}: NUL in a nested string`, endpoint: e, call: { rawBody: JSON.stringify({ tags: ["ok", "x\u0000"] }) }, code: "nul_character" },
        { name: `${label}: NUL in a key`, endpoint: e, call: { rawBody: JSON.stringify({ "ti\u0000tle": "x" }) }, code: "nul_character" },
        { name: `${label}: a lone surrogate in a string field`, endpoint: e, call: { rawBody: JSON.stringify({ title: "a\ud800" }) }, code: "invalid_unicode" },
        { name: `${label}: a lone surrogate in a key`, endpoint: e, call: { rawBody: JSON.stringify({ ["ti\udc00tle"]: "x" }) }, code: "invalid_unicode" },
        { name: `${label}: arrays 5000 deep`, endpoint: e, call: { rawBody: deep(5000) }, code: "too_deep" },
        { name: `${label}: objects 5000 deep`, endpoint: e, call: { rawBody: deepObject(5000) }, code: "too_deep" },
      );
    } else if (e.method !== "GET") {
      out.push(
        { name: `${label}: a body on a route that takes none`, endpoint: e, call: { rawBody: JSON.stringify({ force: true }) }, code: "unrecognized_keys" },
        { name: `${label}: NUL in a body on a route that takes none`, endpoint: e, call: { rawBody: JSON.stringify({ a: "\u0000" }) }, code: "nul_character" },
        { name: `${label}: 5000-deep body on a route that takes none`, endpoint: e, call: { rawBody: deep(5000) }, code: "too_deep" },
        { name: `${label}: a 2 MB body on a route that takes none`, endpoint: e, call: { rawBody: JSON.stringify({ pad: "x".repeat(2_000_000) }) }, code: "payload_too_large", status: 413 },
      );
    }
    if (e.query) {
      const shape = (e.query as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      const param = Object.keys(shape)[0] ?? "q";
      out.push(
        { name: `${label}: NUL in ?${param}`, endpoint: e, call: { query: `?${param}=a%00b` }, code: "nul_character" },
        { name: `${label}: NUL in a parameter name`, endpoint: e, call: { query: `?x%00y=1` }, code: "nul_character" },
      );
    }
  }
  const audit = ENDPOINTS.find((e) => e.path === "/api/v1/audit")!;
  for (const at of ["99999-01-01T00:00:00Z", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T25:00:00Z", "0000-01-01T00:00:00Z", "2026-01-01T1:2:3:4Z"]) {
    out.push({ name: `audit cursor at ${at}`, endpoint: audit, call: { query: `?cursor=${encodeURIComponent(`${at}|${randomUUID()}`)}` }, code: "custom" });
  }
  for (const at of ["0000-01-01T00:00:00Z", "2026-13-01T00:00:00Z"]) {
    out.push({ name: `audit before=${at}`, endpoint: audit, call: { query: `?before=${at}` }, code: "custom_or_format" });
    const interactions = ENDPOINTS.find((e) => e.method === "GET" && e.path === "/api/v1/interactions")!;
    out.push({ name: `interactions before=${at}`, endpoint: interactions, call: { query: `?before=${at}` }, code: "custom_or_format" });
  }
  return out;
}

const table = cases();

describe("input refused at the boundary", () => {
  it("covers every endpoint that takes a body or a query, and every body-less write", () => {
    const endpoints = new Set(table.map((c) => `${c.endpoint.method} ${c.endpoint.path}`));
    const expected = ENDPOINTS.filter((e) => e.body || e.query || e.method !== "GET").length;
    expect(endpoints.size).toBe(expected);
    expect(endpoints.size).toBeGreaterThanOrEqual(24);
    expect(table.length).toBeGreaterThanOrEqual(55);
  });

  it.each(table.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const res = await send(c.endpoint, c.call);
    expect(res.status, JSON.stringify(res.body)?.slice(0, 300)).toBe(c.status ?? 422);
    expect(res.body.error.code).toBe(c.status === 413 ? "payload_too_large" : "validation_failed");
    if (c.code === "nul_character" || c.code === "invalid_unicode" || c.code === "too_deep" || c.code === "unrecognized_keys") {
      expect(res.body.error.details?.[0]?.code).toBe(c.code);
    }
  });

  it("still accepts no body or {} on a route that takes none, and an ordinary audit cursor", async () => {
    const logout = ENDPOINTS.find((e) => e.path === "/api/v1/auth/logout")!;
    expect((await send(logout, {})).status).toBe(200);
    expect((await send(logout, { rawBody: "{}" })).status).toBe(200);
    expect((await send(logout, { rawBody: "" , contentType: "text/plain" })).status).toBe(200);
    const audit = ENDPOINTS.find((e) => e.path === "/api/v1/audit")!;
    const ok = await send(audit, { query: `?cursor=${encodeURIComponent(`2026-02-16T09:30:00.123456Z|${randomUUID()}`)}` });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // a body nested exactly to the limit is not refused for its depth
    const memories = ENDPOINTS.find((e) => e.method === "POST" && e.path === "/api/v1/interactions")!;
    const atLimit = await send(memories, { rawBody: JSON.stringify({ channel: "sms", direction: "inbound", content: "hello", speaker: JSON.parse(deep(MAX_JSON_DEPTH - 1)) }) });
    expect(atLimit.body.error?.details?.[0]?.code).not.toBe("too_deep");
  });
});
