import { describe, expect, it } from "vitest";
import { withDefaultCategory } from "@/components/knowledge/default-category";
import { parseMarkdownEntry } from "@/lib/knowledge/front-matter";

const category = (text: string) => {
  const parsed = parseMarkdownEntry(text);
  return parsed.ok ? parsed.fields.category : `refused: ${parsed.reason}`;
};

describe("withDefaultCategory", () => {
  it("gives a file without front matter the chosen category, keeping its heading as the title", () => {
    const out = withDefaultCategory("# Refunds\n\nNever approve one.", "escalation");
    expect(category(out)).toBe("escalation");
    const parsed = parseMarkdownEntry(out);
    expect(parsed.ok && parsed.fields.title).toBe("Refunds");
  });

  it("adds the category to front matter that lacks one", () => {
    expect(category(withDefaultCategory("---\ntitle: Tone\ntags: [voice]\n---\nBe warm.", "best-practice"))).toBe("best-practice");
  });

  it("never overrides a file's own category, and leaves files alone when no default is chosen", () => {
    const own = "---\ntitle: T\ncategory: template\n---\nx";
    expect(withDefaultCategory(own, "procedure")).toBe(own);
    expect(withDefaultCategory("# T\nx", "")).toBe("# T\nx");
  });
});
