import { beforeAll, describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";

// Knowledge search forgives typos (pg_trgm): "did you mean", and the corrected words searched when
// nothing matches as typed.

let field: TestAgent;

beforeAll(async () => {
  field = await createAgent({ kind: "field", role: "specialist", clientId: (await createClient()).id });
  for (const entry of [
    { title: "Escalation severity levels", content: "Critical: danger to people or property, call at once. High: a customer is blocked today. Medium and low: by the next business day.", category: "escalation" },
    { title: "Refund requests over 500 dollars", content: "Refunds above 500 dollars need a second approval from HQ finance before they are promised.", category: "procedure" },
  ]) {
    const res = await admin.post("/api/v1/knowledge", entry);
    expect([201, 409]).toContain(res.status);
  }
});

describe("typo-tolerant knowledge search", () => {
  it("a misspelt search suggests the corrected words and, finding nothing as typed, shows their matches", async () => {
    const res = await admin.get(`/api/v1/knowledge?q=${encodeURIComponent("escalaton severty")}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.didYouMean).toBe("escalation severity");
    expect(res.body.showingDidYouMean).toBe(true);
    expect(res.body.query).toBe("escalaton severty");
    expect(res.body.entries[0].title).toBe("Escalation severity levels");
    // an agent gets the same help
    const agent = await as(field.key).get(`/api/v1/knowledge?q=${encodeURIComponent("refnd requests")}`);
    expect(agent.body.didYouMean).toBe("refund requests");
    expect(agent.body.entries.map((e: { title: string }) => e.title)).toContain("Refund requests over 500 dollars");
  });

  it("a correctly spelt search gets no suggestion; weak matches below the cut-off are left out", async () => {
    const res = await admin.get(`/api/v1/knowledge?q=${encodeURIComponent("escalation severity")}`);
    expect(res.body.didYouMean).toBeUndefined();
    expect(res.body.entries[0].title).toBe("Escalation severity levels");
    const best = res.body.entries[0].score;
    for (const e of res.body.entries) expect(e.score).toBeGreaterThanOrEqual(best * res.body.scoreCutoff);
    expect(res.body.scoreCutoff).toBeGreaterThan(0);
  });

  it("nonsense gets neither matches nor a suggestion", async () => {
    const res = await admin.get(`/api/v1/knowledge?q=${encodeURIComponent("qwxzv plorkt")}`);
    expect(res.body.entries).toEqual([]);
    expect(res.body.didYouMean).toBeUndefined();
  });
});
