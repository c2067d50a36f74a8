import { describe, expect, it } from "vitest";
import { applyFloor, coverage, judgeScope, MIN_COVERAGE, queryTerms, STRONG_SIMILARITY } from "@/lib/retrieval/search/relevance";

const hit = (text: string, similarity: number | null = null) => ({ text, similarity });
const floor = (message: string, hits: { text: string; similarity: number | null }[]) =>
  applyFloor(hits, (h) => h, message, STRONG_SIMILARITY.local);

describe("the relevance floor", () => {
  it("weighs rare words most: nonsense covers little of a message even when a common word matches", () => {
    const terms = queryTerms("zzzqqq nothing");
    expect(coverage(terms, "There is nothing to schedule today")).toBeLessThan(MIN_COVERAGE);
    expect(coverage(queryTerms("water heater refund"), "Refunds for a water heater install")).toBeGreaterThanOrEqual(MIN_COVERAGE);
  });

  it("matches a word at its start, in any case and with or without accents, never inside another word", () => {
    const terms = queryTerms("café refunds");
    expect(coverage(terms, "CAFE REFUND desk")).toBe(1);
    expect(coverage(terms, "Le Café: refund-policy")).toBe(1);
    expect(coverage(terms, "decafé prerefund")).toBe(0);
    expect(coverage(queryTerms("naïve résumé"), "a naive resume")).toBe(1);
    // a letter outside the basic plane before the word makes it part of that word
    expect(coverage(queryTerms("heater"), "𝒜heater")).toBe(0);
    expect(coverage(queryTerms("heater"), "😀heater")).toBe(1);
  });

  it("answers nothing for nonsense, whatever the nearest rows are", () => {
    const near = STRONG_SIMILARITY.local - 0.01;
    expect(floor("zzzqqq nothing", [hit("There is nothing to schedule today", near), hit("Weekly report", near - 0.1)])).toEqual([]);
    expect(floor("zzzqqq", [hit("Weekly report", near)])).toEqual([]);
  });

  it("keeps a relevant answer with its word-sharing items and drops unrelated neighbours", () => {
    const kept = floor("How do I handle a water heater refund?", [
      hit("Water heater refunds go through the warranty desk"),
      hit("Refund policy: full refund within 30 days", 0.7),
      hit("Quarterly investing strategy", 0.6),
    ]);
    expect(kept.map((h) => h.text)).toEqual(["Water heater refunds go through the warranty desk", "Refund policy: full refund within 30 days"]);
  });

  it("keeps an item found by its meaning alone when it is close enough", () => {
    expect(floor("automobile", [hit("My new car is a Prius", STRONG_SIMILARITY.local + 0.01)])).toHaveLength(1);
  });
});

describe("the relevance floor with the day an item was said", () => {
  const dayFloor = (message: string, text: string, day: string) =>
    applyFloor([{ text, similarity: null, day }], (h) => h, message, STRONG_SIMILARITY.local);

  it("counts a month and a year the message names as one of its words", () => {
    // the text alone holds one word of the message; its day adds the second
    expect(dayFloor("What did Calvin buy in March 2023?", "Calvin: Got myself a vintage camera", "4 March 2023")).toHaveLength(1);
    expect(dayFloor("What did Calvin buy in March 2023?", "Calvin: Got myself a vintage camera", "4 June 2024")).toEqual([]);
    // the month and the year together are one word, and weigh as the heavier of them
    expect(dayFloor("zzzqqq nothing in April 2022", "Nate: feeling stronger", "10 April 2022")).toEqual([]);
  });
});

describe("how well a scope answers", () => {
  const judge = (message: string, hits: { text: string; similarity: number | null }[]) => judgeScope(hits, (h) => h, message, STRONG_SIMILARITY.local);
  it("is the message's word weight its best kept item holds: a common word is little, the rare ones much", () => {
    const message = "What new hobby did John take up after the camping trip?";
    const common = judge(message, [hit("The support inbox runs on the new scheduler after the audit")]);
    const rare = judge(message, [hit("John: I took up a new hobby on our camping trip, pottery!")]);
    expect(common.kept).toHaveLength(1);
    expect(common.strength).toBeLessThan(0.35);
    expect(rare.strength).toBeGreaterThan(0.7);
  });
  it("counts an item close in meaning as a full answer, and nothing when the floor keeps nothing", () => {
    expect(judge("water heater refund", [hit("unrelated words", 0.9)]).strength).toBe(1);
    expect(judge("zzzqqq nothing", [hit("There is nothing to schedule today")])).toEqual({ kept: [], strength: 0 });
  });
});

describe("the relevance floor with near misses (the knowledge search, once nothing else answered)", () => {
  const withNearMisses = (message: string, hits: { text: string; similarity: number | null }[]) =>
    applyFloor(hits, (h) => h, message, STRONG_SIMILARITY.local, { nearMisses: true });

  it("reads a word a letter or two off one the text holds as held, so a misspelling leaves the rest answered", () => {
    const gas = hit("Gas leak escalation: leave the house and call the gas company");
    expect(floor("gaz leak", [gas])).toEqual([]);
    expect(withNearMisses("gaz leak", [gas])).toEqual([gas]);
    const drain = hit("Drain cleaning procedure: use the snake first");
    expect(withNearMisses("drane cleaning", [drain])).toEqual([drain]);
  });

  it("still answers nothing for nonsense beside a common word, nor for a heavy word far from anything", () => {
    expect(withNearMisses("zzzqqq nothing", [hit("There is nothing to schedule today")])).toEqual([]);
    expect(withNearMisses("xylophonic leak", [hit("Lead paint in older houses")])).toEqual([]);
  });
});
