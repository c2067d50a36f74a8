import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
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
  // a team's volume: fifteen refund procedures, a policy, one entry about timing
  const entries = [
    ...["card", "cash", "voucher", "bank transfer", "store credit", "cheque", "gift card", "invoice", "deposit", "warranty", "late delivery", "damaged goods", "cancelled visit", "double charge", "subscription"].map(
      (kind) => ({ title: `Refund requests: ${kind}`, content: `How to handle a refund request paid by ${kind}: check the booking, confirm the amount, record the refund.`, category: "procedure" }),
    ),
    { title: "Cancellation policy", content: "Customers may cancel up to 24 hours before a visit without a fee.", category: "procedure" },
    { title: "Visit timing", content: "Technicians arrive within a two-hour window; tell the customer the window, never an exact time.", category: "best-practice" },
  ];
  const imported = await admin.post("/api/v1/knowledge/import", { entries });
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
});

const search = async (q: string) => {
  const res = await admin.get(`/api/v1/knowledge?q=${encodeURIComponent(q)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { entries: { title: string }[]; didYouMean?: string; showingDidYouMean?: boolean; query: string };
};

describe("typos beyond trigrams", () => {
  it("swapped letters: 'refnud polcy' is read as 'refund policy' and finds the refund requests", async () => {
    const res = await search("refnud polcy");
    expect(res.didYouMean).toBe("refund policy");
    expect(res.showingDidYouMean).toBe(true);
    expect(res.entries.filter((e) => e.title.startsWith("Refund requests")).length).toBeGreaterThanOrEqual(10);
  });

  it("a correctly spelt word with another ending is not corrected: 'refunds' finds the refunds, no 'did you mean'", async () => {
    const res = await search("refunds");
    expect(res.didYouMean).toBeUndefined();
    expect(res.entries.filter((e) => e.title.startsWith("Refund requests")).length).toBeGreaterThanOrEqual(10);
  });

  it("a correctly spelt word no entry holds is not read as another word two edits away; one edit away it is", async () => {
    const voice = { title: "Voice messages from customers", content: "Listen to the whole voice message before calling back.", category: "best-practice" };
    expect([201, 409]).toContain((await admin.post("/api/v1/knowledge", voice)).status);
    // "choice" is an English word: not "voice", however alike
    const choice = await search("choice");
    expect(choice.didYouMean).toBeUndefined();
    expect(choice.entries).toEqual([]);
    // "polity" is a word too, but one letter off a word of the titles: read as "policy"
    expect(await search("polity")).toMatchObject({ didYouMean: "policy", showingDidYouMean: true });
  });

  it("words typed together or apart", async () => {
    expect((await search("refundrequests")).didYouMean).toBe("refund requests");
    const apart = await search("tim ing");
    expect(apart).toMatchObject({ didYouMean: "timing", showingDidYouMean: true });
    expect(apart.entries[0]!.title).toBe("Visit timing");
  });

  it("'did you mean' beside what the words found only when the suggestion finds much more", async () => {
    // "refnud" as typed finds the one entry that has the typo in it; "refund" finds the fifteen
    const typo = { title: "Reading customer messages", content: "Customers write in a hurry: a message asking for a refnud wants a refund.", category: "best-practice" };
    expect((await admin.post("/api/v1/knowledge", typo)).status).toBe(201);
    const more = await search("refnud");
    expect(more).toMatchObject({ didYouMean: "refund", showingDidYouMean: false });
    expect(more.entries.map((e) => e.title)).toEqual(["Reading customer messages"]);
    // "cancellation polcy" finds the policy as typed; "cancellation policy" finds the same: no suggestion
    // a word with another ending is no typo
    expect((await search("refunds")).didYouMean).toBeUndefined();
  });
});

describe("the spelling check in SQL", () => {
  const spelling = async (words: string[]) =>
    (await getDatabase()).query<{ word: string; word_position: number; word_count: number; suggestion: string }>(
      "select word, word_position, word_count, suggestion from mhq.knowledge_spelling($1::text[])",
      [words],
    );

  it("counts a swap of neighbouring letters as one edit", async () => {
    const rows = await (await getDatabase()).query<{ a: number; b: number; c: number; d: number; e: number }>(
      "select mhq.edit_distance('refnud', 'refund') as a, mhq.edit_distance('refund', 'refund') as b, mhq.edit_distance('kitten', 'sitting') as c, mhq.edit_distance('', 'abc') as d, mhq.edit_distance('ca', 'abc') as e",
    );
    expect(rows[0]).toEqual({ a: 1, b: 0, c: 3, d: 3, e: 3 });
  });

  it("says which words each suggestion replaces", async () => {
    expect(await spelling(["refnud", "polcy", "refunds", "the"])).toEqual([
      { word: "refnud", word_position: 1, word_count: 1, suggestion: "refund" },
      { word: "polcy", word_position: 2, word_count: 1, suggestion: "policy" },
    ]);
    expect(await spelling(["refundrequests"])).toEqual([{ word: "refundrequests", word_position: 1, word_count: 1, suggestion: "refund requests" }]);
    expect(await spelling(["re", "fund"])).toEqual([{ word: "re fund", word_position: 1, word_count: 2, suggestion: "refund" }]);
    expect(await spelling(["qwxzv"])).toEqual([]);
  });

  it("reads the known words at least 0.15 alike whatever floor the caller set for pg_trgm's %, and gives that floor back", async () => {
    // "cnacellaiton": two swaps from "cancellation", only 0.24 alike by trigrams
    const rows = await (await getDatabase()).transaction(async (tx) => {
      await tx.query("select set_config('pg_trgm.similarity_threshold', '0.9', true)");
      const fixes = await tx.query<{ suggestion: string; similarity: number }>("select suggestion, similarity from mhq.knowledge_spelling($1::text[])", [["cnacellaiton"]]);
      const [floor] = await tx.query<{ floor: string }>("select current_setting('pg_trgm.similarity_threshold') as floor");
      return { fixes, floor: floor!.floor };
    });
    expect(rows.fixes.map((f) => f.suggestion)).toEqual(["cancellation"]);
    expect(rows.fixes[0]!.similarity).toBeLessThan(0.3);
    expect(rows.floor).toBe("0.9");
  });
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

describe("a misspelt word that is a word elsewhere", () => {
  it("does not leave the words spelt right unanswered once nothing else answers: 'gaz leak' finds the gas leak entry", async () => {
    const gas = { title: "Gas leak escalation", content: "If a customer reports a gas leak, they leave the house and call the gas company; then escalate as critical.", category: "escalation" };
    expect([201, 409]).toContain((await admin.post("/api/v1/knowledge", gas)).status);
    expect((await search("gaz leak")).entries.map((e) => e.title)).toContain("Gas leak escalation");
  });
});
