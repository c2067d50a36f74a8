import { beforeAll, describe, expect, it } from "vitest";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { admin, api, as } from "../helpers/api";
import { createAgent, createHqUser, type TestAgent } from "../helpers/fixtures";

// An agent's own request limits: HQ admins set them (PATCH /api/v1/agents/{id} `limits`), every agent
// view shows those in force, admission applies them from the agent's next request, and no agent —
// nor any HQ user but an admin — can change them, through the API or in the database.

let importer: TestAgent;
let other: TestAgent;

const callerOf = (a: TestAgent): AgentCaller => ({
  type: "agent", agentId: a.id, name: a.name, kind: "internal", role: "specialist", clientId: null, kbAccess: "read",
});
const hqAdmin: HqCaller = { type: "hq", userId: null, name: "admin", email: null, role: "admin" };

beforeAll(async () => {
  importer = await createAgent({ kind: "internal", role: "specialist" });
  other = await createAgent({ kind: "internal", role: "specialist" });
});

describe("an agent's request limits", () => {
  it("are the defaults until an HQ admin sets the agent's own; null returns one to the default", async () => {
    const before = await admin.get(`/api/v1/agents/${importer.id}`);
    expect(before.body.agent.limits).toEqual({
      requestsPerSecond: 100,
      burst: 200,
      maxWaiting: 32,
      custom: { requestsPerSecond: null, burst: null, maxWaiting: null },
    });
    const raised = await admin.patch(`/api/v1/agents/${importer.id}`, { limits: { requestsPerSecond: 500, maxWaiting: 128 } });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body.agent.limits).toEqual({
      requestsPerSecond: 500,
      burst: 200,
      maxWaiting: 128,
      custom: { requestsPerSecond: 500, burst: null, maxWaiting: 128 },
    });
    // the agent reads its own limits (to pace itself); leaving a limit out keeps it
    await admin.patch(`/api/v1/agents/${importer.id}`, { limits: { requestsPerSecond: null } });
    const own = await as(importer.key).get("/api/v1/agents/me");
    expect(own.body.agent.limits.custom).toEqual({ requestsPerSecond: null, burst: null, maxWaiting: 128 });
    expect(own.body.agent.limits.requestsPerSecond).toBe(100);
    // the change is on the audit log
    const audit = await admin.get("/api/v1/audit?action=agent.update&limit=5");
    expect(JSON.stringify(audit.body)).toContain('"maxWaiting":128');
  });

  it("refuses values out of range with 422 naming the field", async () => {
    const res = await admin.patch(`/api/v1/agents/${importer.id}`, { limits: { burst: 0 } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/^limits\.burst:/);
    expect((await admin.patch(`/api/v1/agents/${importer.id}`, { limits: { perDay: 5 } })).status).toBe(422);
  });

  it("can be changed by HQ admins only: an agent (its own included) and a curator get 403", async () => {
    const self = await as(importer.key).patch("/api/v1/agents/me", { limits: { requestsPerSecond: 100_000 } });
    expect(self.status).toBe(403);
    const curator = await createHqUser("curator");
    const byCurator = await api("PATCH", `/api/v1/agents/${importer.id}`, { cookie: curator.cookie, body: { limits: { burst: 10_000 } } });
    expect(byCurator.status).toBe(403);
    expect((await admin.get(`/api/v1/agents/${importer.id}`)).body.agent.limits.custom.burst).toBeNull();
  });

  it("can be changed in the database by an HQ admin only: an agent's update of its own row changes nothing", async () => {
    const db = await getDatabase();
    const update = (claims: Record<string, unknown>) =>
      withClaims(db, claims, (tx) => tx.query("update agents set rate_limit_per_second = 100000 where id = $1 returning id", [other.id]));
    expect(await update(claimsFor(callerOf(other)))).toHaveLength(0);
    expect(await update(claimsFor(hqAdmin))).toHaveLength(1);
    // and the database keeps them in range whoever writes
    await expect(withClaims(db, claimsFor(hqAdmin), (tx) => tx.query("update agents set max_waiting_requests = 0 where id = $1", [other.id]))).rejects.toMatchObject({
      message: expect.stringMatching(/check constraint/),
    });
    await admin.patch(`/api/v1/agents/${other.id}`, { limits: { requestsPerSecond: null } });
  });

  it("hold from the agent's next request: past its own rate and burst it gets 429 with Retry-After and the RateLimit fields", async () => {
    const limited = await createAgent({ kind: "internal", role: "specialist" });
    await admin.patch(`/api/v1/agents/${limited.id}`, { limits: { requestsPerSecond: 1, burst: 1 } });
    // the first request's key lookup tells admission this key's limits
    expect((await as(limited.key).get("/api/v1/agents/me")).status).toBe(200);
    expect((await as(limited.key).get("/api/v1/agents/me")).status).toBe(200);
    const refused = await as(limited.key).get("/api/v1/agents/me");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit")).toMatch(/^"rate";r=0;t=\d+$/);
    expect(refused.headers.get("ratelimit-policy")).toBe('"rate";q=1;w=1, "waiting";q=32;qu="concurrent-requests"');
    // nobody else is slowed or refused by it
    expect((await as(other.key).get("/api/v1/agents/me")).status).toBe(200);
  });
});
