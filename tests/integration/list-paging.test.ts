import { beforeAll, describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";

// Long lists page by keyset cursor: every row exactly once, in the list's order, however the rows
// change between pages; a cursor the server did not give out is refused; another tenant's rows
// are neither listed nor counted.

let sunrise: { id: string };
let northwind: { id: string };
let manager: TestAgent;
let extractor: TestAgent;
let outsider: TestAgent;

/** Every page of `path` (with `limit`), following nextCursor to the end. */
async function walk(key: string | null, path: string, field: string, limit: number) {
  const seen: any[] = [];
  const pages: any[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const sep = path.includes("?") ? "&" : "?";
    const res: { status: number; body: any } = await (key ? as(key) : admin).get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    seen.push(...res.body[field]);
    expect(res.body[field].length).toBeLessThanOrEqual(limit);
    cursor = res.body.nextCursor;
    if (!cursor) break;
    // a full page announces the next one only when a row follows it: never an empty last page
    expect(res.body[field].length).toBe(limit);
  }
  return { rows: seen, pages };
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

beforeAll(async () => {
  sunrise = await createClient();
  northwind = await createClient();
  manager = await createAgent({ kind: "internal", role: "manager" });
  extractor = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  outsider = await createAgent({ kind: "field", role: "orchestrator", clientId: northwind.id });
  await admin.put(`/api/v1/clients/${sunrise.id}/fact-keys`, { keys: [] });
});

describe("suggestions", () => {
  const pending: string[] = [];
  let decided: string[] = [];

  beforeAll(async () => {
    const contacts: string[] = [];
    for (const name of ["Paging Dana", "Paging Lee", "Paging Ana"]) {
      const res = await as(manager.key).post("/api/v1/contacts", { name, clientId: sunrise.id });
      expect(res.status).toBe(201);
      contacts.push(res.body.contact.id);
    }
    // 22 proposals: every third one confident enough for the manager pass, the others for a person
    for (let i = 0; i < 22; i++) {
      const res = await as(extractor.key).post("/api/v1/suggestions", {
        contactId: contacts[i % 3],
        key: `paging_key_${i}`,
        value: `value ${i}`,
        confidence: i % 3 === 0 ? 0.95 : 0.8,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      pending.push(res.body.suggestion.id);
    }
    // four decided: two approved, two rejected
    for (const [i, decision] of [[1, "approve"], [2, "reject"], [4, "approve"], [5, "reject"]] as const) {
      const res = await admin.post(`/api/v1/suggestions/${pending[i]}/review`, { decision, ...(decision === "reject" ? { reason: "not needed" } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    decided = [pending[5]!, pending[4]!, pending[2]!, pending[1]!];
    for (const id of decided) pending.splice(pending.indexOf(id), 1);
  });

  it("pending ones page oldest first, each once, with the total and the threshold", async () => {
    const { rows, pages } = await walk(null, `/api/v1/suggestions?status=pending&clientId=${sunrise.id}`, "suggestions", 5);
    expect(ids(rows)).toEqual(pending);
    expect(pages.map((p) => p.total)).toEqual(pages.map(() => pending.length));
    expect(pages[0].autoApproveThreshold).toBe(0.9);
  });

  it("without a status, pending ones come first and then the decided ones, the latest decision first", async () => {
    const { rows } = await walk(null, `/api/v1/suggestions?clientId=${sunrise.id}`, "suggestions", 4);
    expect(ids(rows)).toEqual([...pending, ...decided]);
    const whole = await admin.get(`/api/v1/suggestions?clientId=${sunrise.id}&limit=500`);
    expect(ids(whole.body.suggestions)).toEqual(ids(rows));
    expect(whole.body).toMatchObject({ nextCursor: null, total: rows.length });
  });

  it("a page read after rows before it were decided starts where the last one ended", async () => {
    const first = await admin.get(`/api/v1/suggestions?status=pending&clientId=${sunrise.id}&limit=5`);
    // two of the first page are decided meanwhile: the next page neither repeats nor skips a row
    for (const s of first.body.suggestions.slice(0, 2)) {
      expect((await admin.post(`/api/v1/suggestions/${s.id}/review`, { decision: "reject", reason: "paging" })).status).toBe(200);
    }
    const next = await admin.get(`/api/v1/suggestions?status=pending&clientId=${sunrise.id}&limit=5&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(ids(next.body.suggestions)).toEqual(pending.slice(5, 10));
    expect(next.body.total).toBe(pending.length - 2);
    pending.splice(0, 2);
  });

  it("filter by the validator's verdict and by words, page by page", async () => {
    const whole = await admin.get(`/api/v1/suggestions?status=pending&clientId=${sunrise.id}&limit=500`);
    const review = whole.body.suggestions.filter((s: any) => s.verdict === "review");
    expect(review.length).toBeGreaterThan(3);
    const { rows, pages } = await walk(null, `/api/v1/suggestions?status=pending&clientId=${sunrise.id}&verdict=review`, "suggestions", 3);
    expect(ids(rows)).toEqual(ids(review));
    expect(pages[0].total).toBeUndefined();
    const words = await admin.get(`/api/v1/suggestions?clientId=${sunrise.id}&q=${encodeURIComponent("PAGING_KEY_1")}&limit=500`);
    // paging_key_1 and paging_key_10…19, whatever their status
    expect(words.body.suggestions.map((s: any) => s.key).sort()).toEqual(["paging_key_1", ...Array.from({ length: 10 }, (_, i) => `paging_key_1${i}`)].sort());
    expect(words.body.total).toBe(11);
    const byContact = await admin.get(`/api/v1/suggestions?clientId=${sunrise.id}&q=paging%20lee&limit=500`);
    expect(byContact.body.suggestions.every((s: any) => s.contact.name === "Paging Lee")).toBe(true);
  });

  it("a cursor the server did not give out is refused", async () => {
    for (const cursor of ["nope", "0|2026-13-01T00:00:00Z|00000000-0000-4000-8000-000000000000", "0|2026-01-01T00:00:00Z|x", "1|2|3|4"]) {
      const res = await admin.get(`/api/v1/suggestions?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(422);
    }
  });

  it("another client's agent neither lists nor counts them", async () => {
    const res = await as(outsider.key).get("/api/v1/suggestions?status=pending&limit=500");
    expect(res.status).toBe(200);
    expect(res.body.suggestions.filter((s: any) => s.clientId === sunrise.id)).toEqual([]);
    expect(res.body.total).toBe(res.body.suggestions.length);
  });
});

describe("contacts", () => {
  it("page the most recently updated first, each once, with the total; another client's agent sees none of them", async () => {
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await as(manager.key).post("/api/v1/contacts", { name: `Listed Person ${i}`, clientId: northwind.id });
      expect(res.status).toBe(201);
      made.push(res.body.contact.id);
    }
    const { rows, pages } = await walk(null, `/api/v1/contacts?clientId=${northwind.id}&q=Listed%20Person`, "contacts", 5);
    expect(ids(rows)).toEqual([...made].reverse());
    expect(pages.map((p) => p.total)).toEqual([12, 12, 12]);
    expect((await admin.get("/api/v1/contacts?cursor=yesterday")).status).toBe(422);
    const theirs = await as(extractor.key).get(`/api/v1/contacts?q=Listed%20Person&limit=500`);
    expect(theirs.body).toMatchObject({ contacts: [], total: 0, nextCursor: null });
  });
});

describe("escalations", () => {
  it("page open ones by severity then age, then resolved ones newest first, each once; the counts cover all", async () => {
    const raised: { id: string; severity: string }[] = [];
    for (const [i, severity] of ["low", "critical", "medium", "high", "critical", "low", "high"].entries()) {
      const res = await as(extractor.key).post("/api/v1/escalations", { question: `Paging question number ${i} about gutters`, severity });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      raised.push({ id: res.body.escalation.id, severity });
    }
    for (const i of [0, 3]) {
      const res = await admin.post(`/api/v1/escalations/${raised[i]!.id}/resolve`, { resolution: "Handled by phone", knowledge: false });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const whole = await as(extractor.key).get("/api/v1/escalations?limit=500");
    const { rows, pages } = await walk(extractor.key, "/api/v1/escalations", "escalations", 2);
    expect(ids(rows)).toEqual(ids(whole.body.escalations));
    const order = ["critical", "high", "medium", "low"];
    const open = rows.filter((e) => e.status === "open");
    expect(open.map((e) => e.severity)).toEqual([...open.map((e) => e.severity)].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    expect(ids(rows.filter((e) => e.status === "resolved"))).toEqual([raised[3]!.id, raised[0]!.id]);
    expect(pages.every((p) => p.counts.open === open.length && p.counts.resolved === 2)).toBe(true);
    const resolved = await walk(extractor.key, "/api/v1/escalations?status=resolved", "escalations", 1);
    expect(ids(resolved.rows)).toEqual([raised[3]!.id, raised[0]!.id]);
    expect((await admin.get("/api/v1/escalations?cursor=9|x|y")).status).toBe(422);
  });
});

describe("decisions by outcome", () => {
  it("narrow to those awaiting an outcome, or scored as worked or failed, with the total of the filter", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const decided: Record<string, string[]> = { awaiting: [], worked: [], failed: [] };
    // distinct decisions (near-duplicates of an active memory are not stored twice)
    const topics = ["Move the Tuesday standup to noon", "Hire a second plumber for Tampa", "Switch SMS provider to a cheaper plan", "Raise the emergency call-out fee", "Drop the newsletter for winter", "Offer annual boiler checks", "Close the Orlando office on Fridays", "Train Santos on gas safety", "Buy a second van for Lakeland"];
    for (let i = 0; i < 9; i++) {
      const res = await as(agent.key).post("/api/v1/agents/me/memories", {
        tier: "learning",
        category: "decision",
        title: topics[i],
        confidence: 0.8,
        decisionContext: { reasoning: "the usual" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.memory.id as string;
      const fate = (["awaiting", "worked", "failed"] as const)[i % 3]!;
      if (fate !== "awaiting") {
        const scored = await as(agent.key).post(`/api/v1/memories/${id}/outcome`, { result: `result ${i}`, success: fate === "worked" });
        expect(scored.status, JSON.stringify(scored.body)).toBe(201);
      }
      decided[fate]!.push(id);
    }
    for (const fate of ["awaiting", "worked", "failed"] as const) {
      const res = await as(agent.key).get(`/api/v1/agents/me/memories?category=decision&status=all&outcome=${fate}&limit=2`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(3);
      const all = await as(agent.key).get(`/api/v1/agents/me/memories?category=decision&status=all&outcome=${fate}&limit=2&offset=2`);
      expect([...ids(res.body.memories), ...ids(all.body.memories)].sort()).toEqual([...decided[fate]!].sort());
    }
    expect((await as(agent.key).get("/api/v1/agents/me/memories?outcome=maybe")).status).toBe(422);
  });
});
