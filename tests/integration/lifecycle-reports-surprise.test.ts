import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentCaller } from "@/lib/auth/caller";
import { resetConfigForTests } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, type TestAgent } from "../helpers/fixtures";

// Nightly reports (stored by the consolidation, sent to the webhook) and the surprise filter.

const WEBHOOK_PORT = 3151;
const DAY = 24 * 3600 * 1000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

let sunrise: { id: string };
let santos: TestAgent;
let other: TestAgent;
let server: Server;
const received: { attempt: number; body: any }[] = [];
let attempts = 0;
let delivered: () => void;
const allDelivered = new Promise<void>((resolve) => (delivered = resolve));

beforeAll(async () => {
  // the webhook fails its first call: the report must arrive on a retry
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      attempts++;
      if (attempts === 1) {
        res.writeHead(503).end();
        return;
      }
      received.push({ attempt: attempts, body: JSON.parse(text) });
      res.writeHead(204).end();
      if (received.some((r) => r.body.report.agentId === santos.id)) delivered();
    });
  });
  await new Promise<void>((resolve) => server.listen(WEBHOOK_PORT, "127.0.0.1", resolve));
  process.env.REPORT_WEBHOOK_URL = `http://127.0.0.1:${WEBHOOK_PORT}/reports`;
  process.env.REPORT_WEBHOOK_BACKOFF_MS = "20";
  process.env.DAILY_NOTE_TIMEZONE = "UTC";
  resetConfigForTests();

  sunrise = await createClient();
  santos = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  other = await createAgent({ kind: "internal", role: "specialist" });
});

afterAll(async () => {
  delete process.env.REPORT_WEBHOOK_URL;
  delete process.env.REPORT_WEBHOOK_BACKOFF_MS;
  resetConfigForTests();
  await new Promise((resolve) => server.close(resolve));
});

describe("nightly reports", () => {
  let decisionId: string;

  it("the consolidation stores yesterday's report per agent, lists a decision awaiting its outcome, and posts it to the webhook", async () => {
    const db = await getDatabase();
    const write = (body: Record<string, unknown>) => as(santos.key).post("/api/v1/agents/me/memories", body);
    const decision = await write({
      tier: "learning", category: "decision", title: "Offer Saturday slots", confidence: 0.7, surpriseScore: 0.6,
      decisionContext: { reasoning: "Weekdays are full" },
    });
    decisionId = decision.body.memory.id;
    await write({ tier: "core", category: "preference", title: "Sunrise signs messages as 'the Sunrise team'", confidence: 0.9 });
    await write({ tier: "learning", category: "insight", title: "Emergency calls peak on Mondays", confidence: 0.8, surpriseScore: 0.7 });
    const esc = await as(santos.key).post("/api/v1/escalations", { question: "Customer asks for a refund beyond policy", severity: "medium" });
    expect(esc.status).toBe(201);
    // retrieval calls: one that finds something, one that finds nothing
    await as(santos.key).post("/api/v1/retrieve", { message: "Offer Saturday slots", scopes: ["memories"] });
    await as(santos.key).post("/api/v1/retrieve", { message: "zzqx unrelated gibberish", scopes: ["memories"] });
    // all of it happened yesterday
    const shift = "interval '1 day'";
    await db.query(`update memories set created_at = created_at - ${shift} where agent_id = $1`, [santos.id]);
    await db.query(`update escalations set created_at = created_at - ${shift} where agent_id = $1`, [santos.id]);
    await db.query(`update retrieval_log set occurred_at = occurred_at - ${shift} where agent_id = $1`, [santos.id]);

    const run = await admin.post("/api/v1/jobs/consolidate", {});
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const yesterday = isoDay(Date.now() - DAY);
    expect(run.body.reports).toMatchObject({ date: yesterday, count: 2 });

    const list = await as(santos.key).get("/api/v1/agents/me/reports");
    expect(list.status).toBe(200);
    expect(list.body.reports).toHaveLength(1);
    const day = await as(santos.key).get(`/api/v1/agents/me/reports/${yesterday}`);
    expect(day.status).toBe(200);
    const r = day.body.report;
    expect(r).toMatchObject({ agentId: santos.id, date: yesterday, stored: true });
    expect(r.learned).toEqual({ total: 3, core: 1, working: 0, learning: 2 });
    expect(r.decisions.made.map((d: any) => d.id)).toEqual([decisionId]);
    expect(r.decisions.awaitingOutcomes.map((d: any) => d.id)).toEqual([decisionId]);
    expect(r.retrieval.calls).toBe(2);
    expect(r.retrieval.emptyResults).toBe(1);
    expect(r.escalations.raised).toHaveLength(1);
    expect(r.suggestions).toEqual({ proposed: 0, approved: 0, rejected: 0 });
    expect(r.markdown).toContain("Decisions awaiting outcomes: 1");
    expect(r.markdown).toContain("- Offer Saturday slots");

    await allDelivered;
    const mine = received.find((x) => x.body.report.agentId === santos.id)!;
    expect(mine.body.report).toMatchObject({ date: yesterday, markdown: r.markdown });
    expect(attempts).toBeGreaterThan(received.length); // the refused first call was retried
  });

  it("an agent reads only its own reports; HQ gets a day not stored computed on demand", async () => {
    const yesterday = isoDay(Date.now() - DAY);
    expect((await as(other.key).get(`/api/v1/agents/${santos.id}/reports`)).status).toBe(404);
    expect((await as(other.key).get(`/api/v1/agents/${santos.id}/reports/${yesterday}`)).status).toBe(404);
    expect((await as(santos.key).get(`/api/v1/agents/me/reports/${isoDay(Date.now())}`)).status).toBe(404);
    expect((await as(santos.key).get(`/api/v1/agents/me/reports/yesterday`)).status).toBe(422);
    const viewer = await createHqUser("viewer");
    const today = await api("GET", `/api/v1/agents/${santos.id}/reports/${isoDay(Date.now())}`, { cookie: viewer.cookie });
    expect(today.status).toBe(200);
    expect(today.body.report).toMatchObject({ stored: false, id: null });
    const db = await getDatabase();
    const caller: AgentCaller = { type: "agent", agentId: other.id, name: other.name, kind: "internal", role: "specialist", clientId: null, kbAccess: "read" };
    expect(await withClaims(db, claimsFor(caller), (tx) => tx.query("select id from agent_reports where agent_id = $1", [santos.id]))).toEqual([]);
  });

  it("the outcome check: recording the outcome takes the decision off the awaiting list", async () => {
    const before = await admin.get("/api/v1/outcomes");
    expect(before.status).toBe(200);
    expect(before.body.awaiting.map((d: any) => d.id)).toContain(decisionId);
    await as(santos.key).post(`/api/v1/memories/${decisionId}/outcome`, { result: "Saturday filled up", success: true });
    const after = await admin.get("/api/v1/outcomes");
    expect(after.body.awaiting.map((d: any) => d.id)).not.toContain(decisionId);
    expect(after.body.recent[0]).toMatchObject({ id: decisionId, success: true });
    expect(after.body.rates.find((x: any) => x.agentId === santos.id && x.category === null)).toMatchObject({ decisions: 1, scored: 1, successes: 1, successRate: 1 });
    expect((await as(santos.key).get("/api/v1/outcomes")).status).toBe(403);
  });
});

describe("the surprise filter", () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await createAgent({ kind: "internal", role: "specialist" });
  });
  const write = (body: Record<string, unknown>) => as(agent.key).post("/api/v1/agents/me/memories", body);

  it("computes a surprise score for a learning write that gives none", async () => {
    const res = await write({ tier: "learning", category: "insight", title: "Plumbing leads from Google convert best on weekends", confidence: 0.6 });
    expect(res.status).toBe(201);
    expect(res.body.memory.surpriseScore).toBe(1); // nothing like it yet
    const related = await write({ tier: "learning", category: "insight", title: "Plumbing leads from Facebook rarely convert", confidence: 0.6 });
    expect(related.status).toBe(201);
    expect(related.body.memory.surpriseScore).toBeGreaterThan(0);
    expect(related.body.memory.surpriseScore).toBeLessThan(1);
  });

  it("a near-duplicate is not stored again: the existing memory is reinforced", async () => {
    const original = await write({ tier: "learning", category: "lesson", title: "Customers prefer a text message before the technician arrives", confidence: 0.45 });
    expect(original.status).toBe(201);
    expect(original.body.memory.expiresAt).not.toBeNull();
    const again = await write({ tier: "learning", category: "lesson", title: "Customers prefer a text message before the technician arrives.", content: "", confidence: 0.6 });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ deduplicated: true, reason: "near_duplicate" });
    expect(again.body.memory.id).toBe(original.body.memory.id);
    expect(again.body.memory.confidence).toBeCloseTo(0.65);
    expect(again.body.memory.accessedCount).toBe(1);
    expect(again.body.memory.expiresAt).toBeNull(); // no longer low-confidence
    const list = await as(agent.key).get("/api/v1/agents/me/memories?q=technician");
    expect(list.body.memories).toHaveLength(1);
    const audit = await admin.get("/api/v1/audit?action=memory.reinforce");
    expect(audit.body.entries[0]).toMatchObject({ targetId: original.body.memory.id });
  });

  it("core memories are always stored, and a given surpriseScore skips the filter", async () => {
    const title = "Always confirm the address before dispatch";
    expect((await write({ tier: "core", category: "procedure", title, confidence: 0.9 })).status).toBe(201);
    expect((await write({ tier: "core", category: "procedure", title, confidence: 0.9 })).status).toBe(201);
    const learned = await write({ tier: "learning", category: "lesson", title: "A learned lesson about invoices", confidence: 0.7 });
    expect(learned.status).toBe(201);
    const given = await write({ tier: "learning", category: "lesson", title: "A learned lesson about invoices", confidence: 0.7, surpriseScore: 0.2 });
    expect(given.status).toBe(201);
    expect(given.body.memory.surpriseScore).toBe(0.2);
  });

  it("only learning-tier memories have a surprise score: a given one is not kept on core and working, and a move out of the tier drops it", async () => {
    const core = await write({ tier: "core", category: "procedure", title: "Call back within the hour", confidence: 0.9, surpriseScore: 0.7 });
    expect(core.status, JSON.stringify(core.body)).toBe(201);
    expect(core.body.memory.surpriseScore).toBeNull();
    const working = await write({ tier: "working", category: "thread", title: "The Oak St boiler quote", confidence: 0.8, surpriseScore: 0.4 });
    expect(working.body.memory.surpriseScore).toBeNull();
    const lesson = await write({ tier: "learning", category: "lesson", title: "Quotes on Fridays close slower", confidence: 0.8, surpriseScore: 0.6 });
    expect(lesson.body.memory.surpriseScore).toBe(0.6);
    const moved = await as(agent.key).patch(`/api/v1/memories/${lesson.body.memory.id}`, { tier: "core", category: "principle" });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.memory).toMatchObject({ tier: "core", surpriseScore: null });
    const given = await as(agent.key).patch(`/api/v1/memories/${core.body.memory.id}`, { surpriseScore: 0.9 });
    expect(given.status).toBe(200);
    expect(given.body.memory.surpriseScore).toBeNull();
    // the database itself refuses one
    await expect(
      (await getDatabase()).query(`update memories set surprise_score = 0.5 where id = $1`, [core.body.memory.id]),
    ).rejects.toMatchObject({ code: "23514" });
  });

  it("a correction is always stored, said again or not, with its surprise score", async () => {
    const said = { tier: "learning", category: "correction", title: "The client's name is spelt Kowalczyk, not Kowalski", confidence: 0.9 };
    const first = await write(said);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await write({ ...said, content: "Client said it again today" });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.memory.id).not.toBe(first.body.memory.id);
    expect(again.body.memory.content).toBe("Client said it again today");
    expect(again.body.memory.surpriseScore).toBeLessThan(0.5);
  });

  it("an archived memory is not a duplicate", async () => {
    const first = await write({ tier: "learning", category: "pattern", title: "Water heater calls spike in January", confidence: 0.7 });
    await as(agent.key).patch(`/api/v1/memories/${first.body.memory.id}`, { status: "archived" });
    const second = await write({ tier: "learning", category: "pattern", title: "Water heater calls spike in January", confidence: 0.7 });
    expect(second.status).toBe(201);
    expect(second.body.memory.id).not.toBe(first.body.memory.id);
  });
});
