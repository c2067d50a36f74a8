import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { resetConfigForTests } from "@/lib/config";
import { EmbeddingUnavailableError, setEmbeddingProviderForTests } from "@/lib/embeddings";
import { admit } from "@/lib/http/admission";
import { proxy } from "@/proxy";
import { admin, api, as } from "../helpers/api";
import { createAgent } from "../helpers/fixtures";
import { parsePrometheusText, sampleValue } from "../helpers/prometheus-text";
import { TEST_ADMIN_KEY } from "../helpers/setup-env";

// GET /api/metrics as Prometheus scrapes it: refused without the token, the text format a scraper
// parses with it, and the figures moving as requests, retrievals, jobs and embeddings happen.

const METRICS_TOKEN = "metrics-token-0123456789abcdef";

function withEnv(env: Record<string, string>) {
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  resetConfigForTests();
}

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  setEmbeddingProviderForTests(undefined);
});

async function scrape(token = METRICS_TOKEN) {
  withEnv({ METRICS_TOKEN });
  const res = await api("GET", "/api/metrics", { key: token });
  expect(res.status, String(res.body)).toBe(200);
  return parsePrometheusText(String(res.body));
}

describe("GET /api/metrics", () => {
  it("answers 401 without the token, with a wrong one and with an agent's key", async () => {
    withEnv({ METRICS_TOKEN });
    const agent = await createAgent({ kind: "internal", role: "manager" });
    for (const key of [null, "wrong-token-0123456789abcdef", agent.key, `${METRICS_TOKEN}x`]) {
      const res = await api("GET", "/api/metrics", { key });
      expect(res.status, String(key)).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    // a token in the query string or a session cookie is no substitute for the header
    expect((await api("GET", `/api/metrics?token=${METRICS_TOKEN}`)).status).toBe(401);
  });

  it("is refused to everyone when neither METRICS_TOKEN nor ADMIN_API_KEY is set", async () => {
    vi.stubEnv("ADMIN_API_KEY", "");
    resetConfigForTests();
    expect((await api("GET", "/api/metrics", { key: TEST_ADMIN_KEY })).status).toBe(401);
    expect((await api("GET", "/api/metrics", { key: "" })).status).toBe(401);
  });

  it("answers the Prometheus text format with METRICS_TOKEN or the admin key", async () => {
    withEnv({ METRICS_TOKEN });
    for (const key of [METRICS_TOKEN, TEST_ADMIN_KEY]) {
      const res = await api("GET", "/api/metrics", { key });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const families = parsePrometheusText(String(res.body));
      expect(families.get("mhq_http_requests_total")?.type).toBe("counter");
      expect(families.get("mhq_http_request_duration_seconds")?.type).toBe("histogram");
      expect(families.get("mhq_admission_queue_length")?.type).toBe("gauge");
      expect(families.get("mhq_retrievals_total")?.type).toBe("counter");
      expect(families.get("mhq_retrieval_duration_seconds")?.type).toBe("histogram");
      expect(families.get("mhq_job_runs_total")?.type).toBe("counter");
      expect(families.get("mhq_embedding_failures_total")?.type).toBe("counter");
      // the process itself
      expect(families.get("process_cpu_user_seconds_total")?.type).toBe("counter");
      expect(families.get("process_resident_memory_bytes")?.type).toBe("gauge");
      expect(families.get("nodejs_eventloop_lag_seconds")?.type).toBe("gauge");
    }
  });

  it("counts requests by route template, method and status, never by raw path", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const written = await as(agent.key).post("/api/v1/agents/me/memories", {
      tier: "core", category: "client", title: "Pelican Dental books mornings", confidence: 0.9,
    });
    expect(written.status).toBe(201);
    const id: string = written.body.memory.id;
    const route = { route: "/api/v1/memories/{id}", method: "GET" };
    const before = await scrape();
    expect((await as(agent.key).get(`/api/v1/memories/${id}`)).status).toBe(200);
    expect((await as(agent.key).get("/api/v1/memories/3f8e0c9a-0000-4000-8000-000000000001")).status).toBe(404);
    expect((await as(agent.key).get(`/api/v1/memories/${id}`)).status).toBe(200);
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      sampleValue(after, "mhq_http_requests_total", labels) - sampleValue(before, "mhq_http_requests_total", labels);
    expect(moved({ ...route, status: "200" })).toBe(2);
    expect(moved({ ...route, status: "404" })).toBe(1);
    expect(
      sampleValue(after, "mhq_http_request_duration_seconds_count", { ...route, status: "200" }) -
        sampleValue(before, "mhq_http_request_duration_seconds_count", { ...route, status: "200" }),
    ).toBe(2);
    // no label anywhere holds an id
    const labelValues = [...after.values()].flatMap((f) => f.samples.flatMap((s) => Object.values(s.labels)));
    expect(labelValues.some((v) => /[0-9a-f]{8}-[0-9a-f]{4}-/.test(v))).toBe(false);
  });

  it("counts paths no route serves under one fixed label, and made-up methods as other", async () => {
    const before = await scrape();
    for (const path of ["/api/v1/nope-1", "/api/v1/agents/x/unknown", `/api/${crypto.randomUUID()}`]) {
      const res = await proxy(new NextRequest(new URL(path, "http://localhost:3000"), { method: "GET" }));
      expect(res.status).toBe(404);
    }
    const refused = await proxy(new NextRequest(new URL("/api/v1/agents", "http://localhost:3000"), { method: "PROPFIND" }));
    expect(refused.status).toBe(405);
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      sampleValue(after, "mhq_http_requests_total", labels) - sampleValue(before, "mhq_http_requests_total", labels);
    expect(moved({ route: "unmatched", method: "GET", status: "404" })).toBe(3);
    expect(moved({ route: "/api/v1/agents", method: "other", status: "405" })).toBe(1);
  });

  it("a retrieval moves mhq_retrievals_total at its level and its duration histogram", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const before = await scrape();
    const res = await as(agent.key).post("/api/v1/retrieve", { message: "Thanks!" });
    expect(res.status).toBe(200);
    const level: string = res.body.level;
    const explicit = await as(agent.key).post("/api/v1/retrieve", { message: "valve", scopes: ["memories"] });
    expect(explicit.status).toBe(200);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    if (level === explicit.body.level) {
      expect(moved("mhq_retrievals_total", { level })).toBe(2);
    } else {
      expect(moved("mhq_retrievals_total", { level })).toBe(1);
      expect(moved("mhq_retrievals_total", { level: explicit.body.level })).toBe(1);
    }
    expect(moved("mhq_retrieval_duration_seconds_count", { level })).toBeGreaterThanOrEqual(1);
    expect(moved("mhq_http_requests_total", { route: "/api/v1/retrieve", method: "POST", status: "200" })).toBe(2);
  });

  it("counts MCP requests under /api/mcp", async () => {
    const before = await scrape();
    const res = await mcpPost(new Request("http://127.0.0.1/api/mcp", { method: "POST", body: "{}" }));
    expect(res.status).toBe(401);
    const after = await scrape();
    expect(
      sampleValue(after, "mhq_http_requests_total", { route: "/api/mcp", method: "POST", status: "401" }) -
        sampleValue(before, "mhq_http_requests_total", { route: "/api/mcp", method: "POST", status: "401" }),
    ).toBe(1);
  });

  it("counts job runs by job and result, and not an operator's dry run", async () => {
    const before = await scrape();
    expect((await admin.post("/api/v1/jobs/consolidate", { dryRun: true })).status).toBe(200);
    const mid = await scrape();
    expect(sampleValue(mid, "mhq_job_runs_total", { job: "consolidate", result: "ok" })).toBe(
      sampleValue(before, "mhq_job_runs_total", { job: "consolidate", result: "ok" }),
    );
    expect((await admin.post("/api/v1/jobs/consolidate", {})).status).toBe(200);
    expect((await admin.post("/api/v1/jobs/purge-notes", {})).status).toBe(200);
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      sampleValue(after, "mhq_job_runs_total", labels) - sampleValue(before, "mhq_job_runs_total", labels);
    expect(moved({ job: "consolidate", result: "ok" })).toBe(1);
    expect(moved({ job: "purge_notes", result: "ok" })).toBe(1);
    // the consolidation folds the access counters first: a run of that job too
    expect(moved({ job: "access_fold", result: "ok" })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, "mhq_job_last_success_timestamp_seconds", { job: "consolidate" })).toBeGreaterThan(Date.now() / 1000 - 60);
  });

  it("counts an embedding provider's failures", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    setEmbeddingProviderForTests({
      name: "openai",
      model: "unreachable",
      embed: async () => {
        throw new EmbeddingUnavailableError("unreachable");
      },
    });
    const before = await scrape();
    const written = await as(agent.key).post("/api/v1/agents/me/memories", {
      tier: "core", category: "client", title: "Written while the embedding server is down", confidence: 0.9,
    });
    expect(written.status).toBe(201);
    const after = await scrape();
    const labels = { provider: "openai", reason: "unavailable" };
    expect(sampleValue(after, "mhq_embedding_failures_total", labels) - sampleValue(before, "mhq_embedding_failures_total", labels)).toBeGreaterThanOrEqual(1);
  });

  it("shows the admission queue, and answers while the queue refuses everyone else", async () => {
    withEnv({ METRICS_TOKEN, ADMISSION_CONCURRENCY: "1", ADMISSION_QUEUE: "1" });
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    const first = admit(new Request("http://test/api/v1/agents"), async () => (await held, new Response("a")));
    const second = admit(new Request("http://test/api/v1/agents"), async () => new Response("b"));
    try {
      // the slot is taken and the queue is full: an API request is refused…
      const refused = await admin.get("/api/v1/agents");
      expect(refused.status).toBe(429);
      // …while the scrape is answered, and shows the waiting request and the refusal
      const res = await api("GET", "/api/metrics", { key: METRICS_TOKEN });
      expect(res.status).toBe(200);
      const families = parsePrometheusText(String(res.body));
      expect(sampleValue(families, "mhq_admission_queue_length")).toBe(1);
      expect(sampleValue(families, "mhq_admission_in_flight")).toBe(1);
      expect(sampleValue(families, "mhq_admission_concurrency_limit")).toBe(1);
      expect(sampleValue(families, "mhq_admission_queue_limit")).toBe(1);
      expect(sampleValue(families, "mhq_admission_rejected_total", { reason: "queue_full", caller: "admin" })).toBeGreaterThanOrEqual(1);
      expect(sampleValue(families, "mhq_http_requests_total", { route: "/api/v1/agents", method: "GET", status: "429" })).toBeGreaterThanOrEqual(1);
    } finally {
      open();
      await Promise.all([first, second]);
    }
    const drained = await scrape();
    expect(sampleValue(drained, "mhq_admission_queue_length")).toBe(0);
    expect(sampleValue(drained, "mhq_admission_in_flight")).toBe(0);
    expect(sampleValue(drained, "mhq_admission_wait_seconds_count")).toBeGreaterThanOrEqual(2);
  });
});
