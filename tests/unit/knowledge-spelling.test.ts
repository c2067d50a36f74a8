import { describe, expect, it } from "vitest";
import { correctedWords, correctionCouldHelp, editDistance, findsMuchMore, plausibleFix } from "@/lib/knowledge/spelling";

// How the spelling check's corrections become "did you mean", and when it is offered.

describe("correctedWords", () => {
  it("replaces each corrected word, two words read as one, in order", () => {
    expect(correctedWords(["refnud", "polcy"], [
      { word: "refnud", position: 1, count: 1, suggestion: "refund" },
      { word: "polcy", position: 2, count: 1, suggestion: "policy" },
    ])).toBe("refund policy");
    expect(correctedWords(["visit", "tim", "ing", "window"], [{ word: "tim ing", position: 2, count: 2, suggestion: "timing" }])).toBe("visit timing window");
    expect(correctedWords(["refundpolicy"], [{ word: "refundpolicy", position: 1, count: 1, suggestion: "refund policy" }])).toBe("refund policy");
  });
  it("skips a correction overlapping a longer one, and answers null without any", () => {
    expect(correctedWords(["re", "fundd"], [
      { word: "re fundd", position: 1, count: 2, suggestion: "refund" },
      { word: "fundd", position: 2, count: 1, suggestion: "fund" },
    ])).toBe("refund");
    expect(correctedWords(["refund"], [])).toBeNull();
  });
});

describe("findsMuchMore", () => {
  it("offers the suggestion beside what was found only for at least twice as many, and two more", () => {
    expect(findsMuchMore(15, 1)).toBe(true);
    expect(findsMuchMore(4, 2)).toBe(true);
    expect(findsMuchMore(15, 15)).toBe(false);
    expect(findsMuchMore(2, 1)).toBe(false);
    expect(findsMuchMore(5, 3)).toBe(false);
  });
});

describe("correctionCouldHelp", () => {
  it("checks the spelling only while a correction could still find much more than the words as typed", () => {
    expect(correctionCouldHelp(0, 20)).toBe(true);
    expect(correctionCouldHelp(1, 20)).toBe(true);
    expect(correctionCouldHelp(10, 20)).toBe(true);
    // 11 found of at most 20: a correction finds at most 20, less than twice 11
    expect(correctionCouldHelp(11, 20)).toBe(false);
    expect(correctionCouldHelp(20, 20)).toBe(false);
    expect(correctionCouldHelp(1, 2)).toBe(false);
    expect(correctionCouldHelp(0, 1)).toBe(true);
  });
});

describe("editDistance", () => {
  it("counts a letter added, dropped or changed, and a swap of neighbours, as one edit each", () => {
    expect(editDistance("refund", "refund")).toBe(0);
    expect(editDistance("refnud", "refund")).toBe(1);
    expect(editDistance("polity", "policy")).toBe(1);
    expect(editDistance("occured", "occurred")).toBe(1);
    expect(editDistance("choice", "voice")).toBe(2);
    expect(editDistance("invoice", "voice")).toBe(2);
    expect(editDistance("", "abc")).toBe(3);
  });
});

describe("plausibleFix", () => {
  const english = new Set(["choice", "polity", "withdraw", "invoice"]);
  const isWord = (w: string) => english.has(w);
  const fix = (word: string, suggestion: string, count = 1) => ({ word, position: 1, count, suggestion });
  it("reads a correctly spelt word only as a word one edit away", () => {
    expect(plausibleFix(fix("polity", "policy"), isWord)).toBe(true);
    expect(plausibleFix(fix("choice", "voice"), isWord)).toBe(false);
    expect(plausibleFix(fix("invoice", "voice"), isWord)).toBe(false);
    expect(plausibleFix(fix("withdraw", "with draw"), isWord)).toBe(false);
  });
  it("takes every correction of a word no dictionary holds, and of two words read as one", () => {
    expect(plausibleFix(fix("refnud", "refund"), isWord)).toBe(true);
    expect(plausibleFix(fix("refundpolicy", "refund policy"), isWord)).toBe(true);
    expect(plausibleFix(fix("escalaton", "escalation"), isWord)).toBe(true);
    expect(plausibleFix(fix("re fund", "refund", 2), isWord)).toBe(true);
  });
});
