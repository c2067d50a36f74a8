import { NextRequest } from "next/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { POST as postInteraction } from "@/app/api/v1/interactions/route";
import { resetConfigForTests } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { admin, api, as } from "../helpers/api";
import { transport } from "../helpers/db";
import { createAgent, createClient, rareWord, type TestAgent } from "../helpers/fixtures";
import { parsePrometheusText, sampleValue } from "../helpers/prometheus-text";
import { TEST_ADMIN_KEY } from "../helpers/setup-env";

// What crosses the boundary comes back as it was sent, or is refused with 422 naming the field: times
// the API's ISO form cannot carry (a year past 9999 or before 0001 once in UTC), cursors nobody gave
// out, text that is not valid Unicode. A batch answers like a single write, and reading a backup's
// headers takes no backup.

let agent: TestAgent;
let manager: TestAgent;

beforeAll(async () => {
  const client = await createClient();
  agent = await createAgent({ kind: "field", role: "specialist", clientId: client.id });
  manager = await createAgent({ kind: "internal", role: "manager" });
});

/** One JSON-RPC call to the MCP endpoint, answered in JSON. */
async function mcp(key: string, name: string, args: unknown) {
  const res = await mcpPost(
    new Request("http://127.0.0.1/api/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    }),
  );
  const body = await res.json();
  if (res.status !== 200) return { status: res.status, error: body.error };
  const result = body.result as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  return result.isError ? { status: 422, error: JSON.parse(result.content[0]!.text).error } : { status: 200, result: result.structuredContent };
}

const turn = (extra: Record<string, unknown> = {}) => ({ channel: "sms", direction: "inbound", content: `hello ${rareWord()}`, ...extra });

// past 9999 once in UTC; before 0001 once in UTC
const TOO_LATE = "9999-12-31T23:59:59-14:00";
const TOO_EARLY = "0001-01-01T00:30:00+01:00";

describe("times the API cannot answer in its own form are refused with 422 naming the field", () => {
  const writes: { name: string; call: (at: string) => Promise<{ status: number; body: any }>; field: RegExp }[] = [
    { name: "POST /interactions", call: (at) => as(agent.key).post("/api/v1/interactions", turn({ occurredAt: at })), field: /^occurredAt$/ },
    {
      name: "POST /interactions/batch",
      call: (at) => as(agent.key).post("/api/v1/interactions/batch", { interactions: [turn(), turn(), turn({ occurredAt: at })] }),
      field: /^interactions\.2\.occurredAt$/,
    },
    {
      name: "POST /agents/me/memories",
      call: (at) => as(agent.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: `Books mornings ${rareWord()}`, confidence: 0.9, occurredAt: at }),
      field: /^occurredAt$/,
    },
    { name: "POST /events", call: (at) => as(agent.key).post("/api/v1/events", { kind: "booking.failed", summary: "x", occurredAt: at }), field: /^occurredAt$/ },
    { name: "POST /jobs/purge-notes", call: (at) => admin.post("/api/v1/jobs/purge-notes", { now: at }), field: /^now$/ },
    { name: "POST /jobs/consolidate", call: (at) => admin.post("/api/v1/jobs/consolidate", { now: at, dryRun: true }), field: /^now$/ },
    { name: "GET /interactions?before=", call: (at) => as(manager.key).get(`/api/v1/interactions?before=${encodeURIComponent(at)}`), field: /^before$/ },
    { name: "GET /audit?from=", call: (at) => admin.get(`/api/v1/audit?from=${encodeURIComponent(at)}`), field: /^from$/ },
    { name: "GET /events?since=", call: (at) => as(manager.key).get(`/api/v1/events?since=${encodeURIComponent(at)}`), field: /^since$/ },
  ];

  it.each(writes.map((w) => [w.name, w] as const))("%s", async (_name, w) => {
    for (const at of [TOO_LATE, TOO_EARLY]) {
      const res = await w.call(at);
      expect(res.status, `${at}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
      const paths = JSON.stringify(res.body.error.details);
      expect(res.body.error.details.issues ?? res.body.error.details, paths).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(w.field) })]),
      );
    }
  });

  it("a daily note's day: years 0001–9999 of the calendar, refused naming the field otherwise", async () => {
    for (const day of ["0000-01-01", "2024-02-30", "10000-01-01"]) {
      const put = await as(agent.key).put("/api/v1/agents/me/documents/daily", { content: "x", date: day });
      expect(put.status, `${day}: ${JSON.stringify(put.body)}`).toBe(422);
      expect(put.body.error.details[0].path).toBe("date");
      expect((await as(agent.key).get(`/api/v1/agents/me/documents/daily?date=${day}`)).status).toBe(422);
      const report = await admin.get(`/api/v1/agents/${agent.id}/reports/${day}`);
      expect(report.status).toBe(422);
      expect(report.body.error.details[0].path).toBe("date");
    }
    const first = await as(agent.key).put("/api/v1/agents/me/documents/daily", { content: "The first day", date: "0001-01-01" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await as(agent.key).get("/api/v1/agents/me/documents/daily?date=0001-01-01")).body).toMatchObject({ date: "0001-01-01", content: "The first day" });
  });

  it("in a batch, names the bad item's position in details.index", async () => {
    const res = await as(agent.key).post("/api/v1/interactions/batch", { interactions: [turn(), turn({ occurredAt: TOO_LATE }), turn()] });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.details.index).toBe(1);
    expect(res.body.error.message).toMatch(/^interactions\[1\]\.occurredAt: /);
  });

  it("over MCP too: log_conversation and log_interaction refuse it as the API's 422", async () => {
    const batch = await mcp(agent.key, "log_conversation", { interactions: [turn(), turn({ occurredAt: TOO_LATE })] });
    expect(batch.status, JSON.stringify(batch)).toBe(422);
    expect(batch.error.code).toBe("validation_failed");
    expect(batch.error.details.index).toBe(1);
    const one = await mcp(agent.key, "log_interaction", turn({ occurredAt: TOO_LATE }));
    expect(one.status, JSON.stringify(one)).toBe(422);
    expect(JSON.stringify(one.error.details)).toContain("occurredAt");
  });
});

describe("times that are accepted come back as the same instant", () => {
  it("years 0001–0099 on interactions, in the listing's order too", async () => {
    const thread = rareWord();
    const times = ["0001-01-01T00:00:00.000Z", "0050-06-15T12:00:00.000Z", "0099-12-31T23:59:59.999Z", "1999-12-31T23:59:59.999Z"];
    for (const at of times) {
      const res = await as(agent.key).post("/api/v1/interactions", turn({ occurredAt: at, conversationId: thread }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.interaction.occurredAt).toBe(at);
    }
    const listed = await as(manager.key).get(`/api/v1/interactions?conversationId=${thread}&agentId=${agent.id}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.interactions.map((i: any) => i.occurredAt)).toEqual(times);
  });

  it("an offset is kept as the instant it names; finer than milliseconds is dropped", async () => {
    const res = await as(agent.key).post("/api/v1/interactions", turn({ occurredAt: "2024-03-01T10:00:00.123456+05:30" }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.interaction.occurredAt).toBe("2024-03-01T04:30:00.123Z");
    const latest = await as(agent.key).post("/api/v1/interactions", turn({ occurredAt: "9999-12-31T23:59:59.999Z" }));
    expect(latest.status, JSON.stringify(latest.body)).toBe(201);
    expect(latest.body.interaction.occurredAt).toBe("9999-12-31T23:59:59.999Z");
  });

  it("the database driver reads every year back, whatever time zone the session shows times in", async () => {
    const db = await getDatabase();
    const read = await db.transaction(async (tx) => {
      // old dates in a named zone come with its local mean time: an offset with seconds
      await tx.query("set local timezone = 'Europe/Amsterdam'");
      return tx.query<{ a: Date; b: Date; c: Date }>(
        "select '0001-01-01T00:00:00Z'::timestamptz as a, '0099-06-30T12:00:00.123Z'::timestamptz as b, '2024-07-01T00:00:00Z'::timestamptz as c",
      );
    });
    expect([read[0]!.a, read[0]!.b, read[0]!.c].map((d) => d.toISOString())).toEqual(["0001-01-01T00:00:00.000Z", "0099-06-30T12:00:00.123Z", "2024-07-01T00:00:00.000Z"]);
  });

  it("years 0001–0099 on memories, written and read back", async () => {
    const at = "0042-02-03T04:05:06.000Z";
    const written = await as(agent.key).post("/api/v1/agents/me/memories", {
      tier: "core", category: "client", title: `Founded long ago ${rareWord()}`, confidence: 0.9, occurredAt: at,
    });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    expect(written.body.memory.occurredAt).toBe(at);
    const read = await as(agent.key).get(`/api/v1/memories/${written.body.memory.id}`);
    expect(read.body.memory.occurredAt).toBe(at);
  });

  it("a listing's cursor pages through such times; a forged cursor is refused with 422 naming it", async () => {
    const thread = rareWord();
    const times = ["0001-01-01T00:00:00.000Z", "0002-01-01T00:00:00.000Z", "0003-01-01T00:00:00.000Z"];
    const sent = await as(agent.key).post("/api/v1/interactions/batch", { interactions: times.map((at) => turn({ occurredAt: at, conversationId: thread })) });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const first = await as(manager.key).get(`/api/v1/interactions?agentId=${agent.id}&conversationId=${thread}&limit=2`);
    expect(first.body.interactions.map((i: any) => i.occurredAt)).toEqual(times.slice(0, 2));
    const second = await as(manager.key).get(`/api/v1/interactions?agentId=${agent.id}&conversationId=${thread}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.interactions.map((i: any) => i.occurredAt)).toEqual(times.slice(2));

    for (const forged of ["2024-01-01 00:00:00+99|1", "2024-01-01 00:00:00+00|1", "10000-01-01T00:00:00.000000Z|1", "2024-02-30T00:00:00.000000Z|1", "2024-01-01T00:00:00.000000Z|x"]) {
      const cursor = Buffer.from(forged).toString("base64url");
      const res = await as(manager.key).get(`/api/v1/interactions?cursor=${cursor}`);
      expect(res.status, `${forged}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.error.message).toMatch(/^cursor: /);
    }
  });
});

describe("text that is not valid Unicode is refused with 422, as NUL is", () => {
  it("a lone surrogate in externalId: refused every time, never stored as U+FFFD", async () => {
    const body = turn({ externalId: "x\ud800" });
    for (let i = 0; i < 2; i++) {
      const res = await as(agent.key).post("/api/v1/interactions", body);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.details[0]).toMatchObject({ path: "externalId", code: "invalid_unicode" });
    }
    const stored = await as(manager.key).get(`/api/v1/interactions?agentId=${agent.id}&limit=200`);
    expect(stored.body.interactions.some((i: any) => i.externalId?.startsWith("x"))).toBe(false);
    // a well-formed pair (an emoji) is fine, and its retry is deduplicated
    const emoji = turn({ externalId: "x\ud83d\ude00" });
    expect((await as(agent.key).post("/api/v1/interactions", emoji)).status).toBe(201);
    const again = await as(agent.key).post("/api/v1/interactions", emoji);
    expect(again.status).toBe(200);
    expect(again.body.deduplicated).toBe(true);
  });

  it("in keys and nested strings, and in MCP requests", async () => {
    const key = await as(agent.key).post("/api/v1/interactions", { ...turn(), ["sp\udc00eaker"]: "x" });
    expect(key.status).toBe(422);
    expect(key.body.error.details[0].code).toBe("invalid_unicode");
    const nested = await as(agent.key).post("/api/v1/interactions/batch", { interactions: [turn(), turn({ speaker: "\udfffAnn" })] });
    expect(nested.status).toBe(422);
    expect(nested.body.error.details[0]).toMatchObject({ path: "interactions.1.speaker", code: "invalid_unicode" });
    const viaMcp = await mcp(agent.key, "log_interaction", turn({ externalId: "y\ud800" }));
    expect(viaMcp.status, JSON.stringify(viaMcp)).toBe(422);
    expect(viaMcp.error.details[0]).toMatchObject({ code: "invalid_unicode" });
  });

  it("a body that is not UTF-8 is refused rather than stored with replacement characters", async () => {
    const bytes = Buffer.concat([Buffer.from('{"channel":"sms","direction":"inbound","content":"hi","externalId":"x'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    const res = await postInteraction(
      new NextRequest("http://localhost:3000/api/v1/interactions", {
        method: "POST",
        headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
        body: bytes,
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(422);
    expect((await res.json()).error.details[0].code).toBe("invalid_unicode");
  });
});

describe("a retried batch", () => {
  it("answers 201 with the same ids, each marked deduplicated, and stores nothing new", async () => {
    const items = [turn({ externalId: rareWord() }), turn({ externalId: rareWord() })];
    const first = await as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const retry = await as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.interactions).toEqual(first.body.interactions.map((i: any) => ({ ...i, deduplicated: true })));
    const grown = await as(agent.key).post("/api/v1/interactions/batch", { interactions: [...items, turn({ externalId: rareWord() })] });
    expect(grown.status).toBe(201);
    expect(grown.body.interactions.map((i: any) => i.deduplicated ?? false)).toEqual([true, true, false]);
    // a single write's repeat answers 200, as the contract says for it
    const one = turn({ externalId: rareWord() });
    expect((await as(agent.key).post("/api/v1/interactions", one)).status).toBe(201);
    expect((await as(agent.key).post("/api/v1/interactions", one)).status).toBe(200);
  });
});

describe("HEAD /api/v1/admin/backup", () => {
  it("answers the headers only: no backup is taken and none is audited", async () => {
    const before = (await admin.get("/api/v1/audit?action=database.backup")).body.entries.length;
    const head = await api("HEAD", "/api/v1/admin/backup", { key: TEST_ADMIN_KEY });
    if (transport === "pglite") {
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe("application/gzip");
      expect(head.headers.get("content-disposition")).toMatch(/^attachment; filename="memory-hq-backup-.*Z\.tar\.gz"$/);
    } else {
      expect(head.status).toBe(409);
    }
    expect(head.body).toBeNull();
    expect((await admin.get("/api/v1/audit?action=database.backup")).body.entries.length).toBe(before);
    // still only for HQ admins
    expect((await api("HEAD", "/api/v1/admin/backup", { key: manager.key })).status).toBe(403);
    expect((await api("HEAD", "/api/v1/admin/backup")).status).toBe(401);
  });
});

describe("a client that disconnects while sending its body", () => {
  const METRICS_TOKEN = "metrics-token-boundary-0123456789";
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    resetConfigForTests();
  });
  const scrape = async () => {
    vi.stubEnv("METRICS_TOKEN", METRICS_TOKEN);
    resetConfigForTests();
    const res = await api("GET", "/api/metrics", { key: METRICS_TOKEN });
    return parsePrometheusText(String(res.body));
  };

  it("is counted as the client's abort (499), not as a server error, and logs no internal error", async () => {
    const labels = (status: string) => ({ route: "/api/v1/interactions", method: "POST", status });
    const before = await scrape();
    const logged = vi.spyOn(console, "error");
    // half a body, then the connection is gone (as Node's request stream reports it)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"channel":"sms","direction":"inbound","content":"'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const res = await postInteraction(
      new NextRequest("http://localhost:3000/api/v1/interactions", {
        method: "POST",
        headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
        body,
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(499);
    expect(logged).not.toHaveBeenCalled();
    const after = await scrape();
    const moved = (status: string) => sampleValue(after, "mhq_http_requests_total", labels(status)) - sampleValue(before, "mhq_http_requests_total", labels(status));
    expect(moved("499")).toBe(1);
    expect(moved("500")).toBe(0);
  });
});

describe("a query parameter sent empty", () => {
  it("is as if it were not sent: unset filters of a form or a URL template do not refuse the call", async () => {
    const written = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: "Empty filters", confidence: 0.9 });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    for (const [path, caller] of [
      ["/api/v1/agents/me/memories?tier=&category=&status=&limit=", as(agent.key)],
      ["/api/v1/knowledge?q=&category=&tag=&limit=", as(agent.key)],
      ["/api/v1/suggestions?status=&q=&cursor=", admin],
      ["/api/v1/escalations?status=&severity=", admin],
      ["/api/v1/audit?action=&limit=", admin],
    ] as const) {
      const res = await caller.get(path);
      const plain = await caller.get(path.split("?")[0]!);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(Object.keys(res.body), path).toEqual(Object.keys(plain.body));
    }
    // a value that is there is still checked
    expect((await as(agent.key).get("/api/v1/agents/me/memories?tier=nope")).status).toBe(422);
  });
});

describe("a value of the wrong kind is refused in plain words, naming the field", () => {
  it("numbers: text in a query or in quotes in a body, a fraction where a whole number belongs; times: one message", async () => {
    const cases: [Promise<{ status: number; body: any }>, string, string][] = [
      [as(agent.key).get("/api/v1/knowledge?limit=ten"), "limit", "expected a whole number"],
      [as(agent.key).get("/api/v1/knowledge?limit=2.5"), "limit", "expected a whole number"],
      [
        as(agent.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: "Quoted confidence", confidence: "0.9" }),
        "confidence",
        "expected a number, not text in quotes",
      ],
      [as(agent.key).post("/api/v1/retrieve", { message: "boiler", limit: 3.5 }), "limit", "expected a whole number"],
      [admin.get("/api/v1/audit?from=yesterday"), "from", "expected a date and time in ISO 8601 with its offset, such as 2026-03-01T09:30:00Z"],
    ];
    for (const [call, field, message] of cases) {
      const res = await call;
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.message).toBe(`${field}: ${message}`);
      // one issue per wrong value: a time that is no time is not also said to be out of range
      expect(res.body.error.details).toEqual([expect.objectContaining({ path: field, message })]);
    }
    // a field or a parameter the endpoint does not take is named, and said to be the query's when it is
    const unknownParam = await as(agent.key).get("/api/v1/agents/me/memories?foo=1&colour=red");
    expect(unknownParam.status).toBe(422);
    expect(unknownParam.body.error.message).toBe('query: unknown parameters "foo", "colour"');
    // a number far past a field's bound is told the field's own bound, not the largest exact whole number
    for (const path of ["/api/v1/agents/me/memories?limit=99999999999999999999", "/api/v1/agents/me/memories?offset=9007199254740993"]) {
      const huge = await as(agent.key).get(path);
      expect(huge.status, path).toBe(422);
      expect(huge.body.error.message, path).toMatch(/^(limit|offset): /);
      expect(JSON.stringify(huge.body.error), path).not.toContain("9007199254740991");
    }
    // so does an endpoint that takes no query at all, reading or writing (the pass did not run)
    for (const [who, path] of [[admin, "/api/v1/clients?foo=1"], [as(agent.key), "/api/v1/agents/me?foo=1"], [admin, `/api/v1/agents/${agent.id}/keys?foo=1`], [admin, "/api/v1/knowledge/tags?foo=1"]] as const) {
      const res = await who.get(path);
      expect(res.status, path).toBe(422);
      expect(res.body.error.message, path).toBe('query: unknown parameter "foo"');
    }
    const pass = await admin.post("/api/v1/review/run?dryRun=true");
    expect(pass.status).toBe(422);
    expect(pass.body.error.message).toBe('query: unknown parameter "dryRun"');
    const unknownField = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: "Extra", confidence: 0.9, colour: "red" });
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.error.message).toBe('body: unknown field "colour"');
    // a missing value still reads as missing
    const missing = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "core", category: "client", title: "No confidence" });
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toMatch(/^confidence: .*received undefined/);
  });

  it("over MCP too", async () => {
    const res = await mcp(agent.key, "kb_search", { q: "boiler", limit: "five" });
    expect(res.status, JSON.stringify(res)).toBe(422);
    expect(JSON.stringify(res.error)).toContain("limit: expected a whole number, not text in quotes");
  });
});
