import { describe, expect, it } from "vitest";
import { localTime } from "@/lib/lifecycle/scheduler";
import { reportMarkdown } from "@/lib/lifecycle/report-markdown";
import {
  addDays,
  combinedSimilarity,
  NEAR_DUPLICATE_SIMILARITY,
  promotedCategory,
  reinforcedConfidence,
  surpriseFrom,
  wordOverlap,
} from "@/lib/lifecycle/rules";

describe("lifecycle rules", () => {
  it("promote field agents only into client procedures and preferences", () => {
    expect(promotedCategory("field", "correction")).toBe("preference");
    expect(promotedCategory("field", "insight")).toBe("preference");
    expect(promotedCategory("field", "pattern")).toBe("procedure");
    expect(promotedCategory("field", "lesson")).toBe("procedure");
    expect(promotedCategory("internal", "correction")).toBe("principle");
    expect(promotedCategory("internal", "strategy")).toBe("procedure");
  });

  it("count calendar days across month and year ends", () => {
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-11-23", -7)).toBe("2026-11-16");
  });

  it("judge novelty by embedding cosine and word overlap", () => {
    expect(wordOverlap("Customers prefer a text before the visit", "customers prefer a TEXT before the visit.")).toBe(1);
    expect(wordOverlap("booking link broken", "invoice template")).toBe(0);
    expect(combinedSimilarity(1, 1)).toBe(1);
    expect(combinedSimilarity(0.9, 0.8)).toBeGreaterThanOrEqual(NEAR_DUPLICATE_SIMILARITY);
    expect(combinedSimilarity(0.6, 0.3)).toBeLessThan(NEAR_DUPLICATE_SIMILARITY);
    expect(combinedSimilarity(-0.5, 0)).toBe(0);
    expect(surpriseFrom(0.25)).toBe(0.75);
  });

  it("reinforce confidence by a step, never to certainty", () => {
    expect(reinforcedConfidence(0.45, 0.6)).toBeCloseTo(0.65);
    // as a client reads it back: no binary remainder
    expect(reinforcedConfidence(0.8, 0.8)).toBe(0.85);
    expect(reinforcedConfidence(0.6, 0.7)).toBe(0.75);
    expect(reinforcedConfidence(0.98, 0.5)).toBe(0.99);
  });

  it("read the time of day in the configured zone", () => {
    const at = new Date("2026-11-23T07:30:00Z");
    expect(localTime("UTC", at)).toBe("07:30");
    expect(localTime("America/New_York", at)).toBe("02:30");
  });

  it("render a report as markdown", () => {
    const md = reportMarkdown({
      agentId: "a", agentName: "Santos", date: "2026-11-22",
      learned: { total: 2, core: 1, working: 0, learning: 1 },
      decisions: { made: [{ id: "d", title: "Offer Saturday slots" }], outcomesRecorded: [], awaitingOutcomes: [{ id: "d", title: "Offer Saturday slots", createdAt: "", ageDays: 1 }] },
      retrieval: { calls: 3, byLevel: { local: 2, hq: 1 }, emptyResults: 1 },
      escalations: { raised: [], resolved: 0 },
      suggestions: { proposed: 1, approved: 1, rejected: 0 },
    });
    expect(md).toContain("# Nightly report — Santos, 2026-11-22");
    expect(md).toContain("- Decisions awaiting outcomes: 1\n  - Offer Saturday slots — 1 day old");
    expect(md).toContain("3 calls (local 2, hq 1); 1 returned nothing.");
  });
});
