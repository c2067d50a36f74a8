import { describe, expect, it } from "vitest";
import { mergeText } from "@/components/memories/merge-text";

const base = "## Current task\nCall the Smiths\n\n## Status\nwaiting\n\n## Next steps\n1. quote\n";

describe("mergeText", () => {
  it("keeps both writers' lines when they changed different parts", () => {
    const mine = base.replace("waiting", "quote sent");
    const theirs = base.replace("1. quote\n", "1. quote\n2. follow up Friday\n");
    const merged = mergeText(base, mine, theirs);
    expect(merged.clean).toBe(true);
    expect(merged.text).toContain("quote sent");
    expect(merged.text).toContain("2. follow up Friday");
    expect(merged.text).not.toContain("waiting");
  });

  it("takes the only side that changed", () => {
    expect(mergeText(base, base, "x")).toEqual({ text: "x", clean: true });
    expect(mergeText(base, "y", base)).toEqual({ text: "y", clean: true });
  });

  it("loses nothing when both changed the same line: the saved text plus your added lines", () => {
    const mine = base.replace("waiting", "mine: booked");
    const theirs = base.replace("waiting", "theirs: cancelled");
    const merged = mergeText(base, mine, theirs);
    expect(merged.clean).toBe(false);
    expect(merged.text).toContain("theirs: cancelled");
    expect(merged.text).toContain("mine: booked");
  });
});
