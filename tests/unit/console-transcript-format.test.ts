import { describe, expect, it } from "vitest";
import { formatTimeRange, formatTurnTime } from "@/lib/console/format";
import { highlightParts, searchStems } from "@/lib/console/highlight";

// The transcript's time ranges say the date once, and search hits mark the words that matched.
process.env.TZ = "UTC";

const norm = (s: string) => s.replace(/[\u2009\u202f]/g, " ");

describe("formatTimeRange", () => {
  it("says a day's date once", () => {
    expect(norm(formatTimeRange("2026-11-26T20:20:00Z", "2026-11-26T21:09:00Z"))).toBe("Nov 26, 2026, 8:20 – 9:09 PM");
  });
  it("says both dates across days, and one time for a single moment", () => {
    expect(norm(formatTimeRange("2026-11-26T20:20:00Z", "2026-11-27T09:05:00Z"))).toBe("Nov 26, 2026, 8:20 PM – Nov 27, 2026, 9:05 AM");
    expect(norm(formatTimeRange("2026-11-26T20:20:00Z", "2026-11-26T20:20:00Z"))).toBe("Nov 26, 2026, 8:20 PM");
  });
  it("a turn on the same day as the one before shows its time alone", () => {
    expect(norm(formatTurnTime("2026-11-26T21:09:00Z", "2026-11-26T20:20:00Z"))).toBe("9:09 PM");
    expect(norm(formatTurnTime("2026-11-27T09:05:00Z", "2026-11-26T20:20:00Z"))).toBe("Nov 27, 2026, 9:05 AM");
  });
});

describe("highlightParts", () => {
  it("marks the words a search found, by their stem", () => {
    const parts = highlightParts("Refunded in full; refund policy applies.", "refunds");
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(["Refunded", "refund"]);
    expect(parts.map((p) => p.text).join("")).toBe("Refunded in full; refund policy applies.");
  });
  it("marks nothing inside other words, and nothing for an empty search", () => {
    expect(highlightParts("unrefunded", "refund").some((p) => p.hit)).toBe(false);
    expect(highlightParts("text", "  ")).toEqual([{ text: "text", hit: false }]);
    expect(searchStems("Gas smell, gas")).toEqual(["smell", "gas"]);
  });
});
