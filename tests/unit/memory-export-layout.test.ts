import { describe, expect, it } from "vitest";
import { buildMemoryFolder, fileSlug } from "@/lib/memories/export-layout";

const memory = (over: Record<string, unknown>) => ({
  id: "0b6a3c1e-0000-4000-8000-000000000000",
  scope: "agent" as const,
  tier: "learning" as const,
  category: "insight" as const,
  title: "A title",
  content: "",
  confidence: 0.8,
  tags: [],
  status: "active" as const,
  decisionContext: null,
  outcome: null,
  relatedIds: [],
  expiresAt: null,
  createdAt: new Date("2026-02-15T00:00:00Z"),
  createdByName: "Sybil",
  ...over,
});

describe("export layout (the memory/ folder)", () => {
  it("slugs titles into stable, unique file names", () => {
    expect(fileSlug("Short BTC — funding rate spike!", "abcdef12-3456")).toBe("short-btc-funding-rate-spike-abcdef12");
    expect(fileSlug("¿¿??", "abcdef12")).toBe("memory-abcdef12");
    expect(fileSlug("x".repeat(80), "abcdef12")).toBe(`${"x".repeat(50)}-abcdef12`);
  });

  it("puts core in one file per category, commitments in pending.md, the rest one file each", () => {
    const files = buildMemoryFolder({
      agent: { id: "agent-1", name: "Santos", kind: "field", role: "orchestrator", clientName: "Sunrise Plumbing" },
      soul: "# Santos",
      working: "",
      daily: [{ date: "2026-02-14", content: "note" }],
      exportedAt: new Date("2026-02-15T00:00:00Z"),
      memories: [
        memory({ id: "11111111-aaaa", tier: "core", category: "procedure", title: "Escalate leaks to Sam" }),
        memory({ id: "22222222-aaaa", tier: "core", category: "procedure", title: "Quote within 24h" }),
        memory({ id: "33333333-aaaa", tier: "working", category: "commitment", title: "Friday report" }),
        memory({ id: "44444444-aaaa", tier: "working", category: "project", title: "Website refresh" }),
        memory({
          id: "55555555-aaaa",
          category: "decision",
          title: "Offer Tuesday first",
          decisionContext: { reasoning: "slow day", alternatives: ["Monday"] },
          outcome: { result: "booked", success: false, scoredAt: "2026-02-16T00:00:00Z" },
          tags: ["scheduling"],
        }),
      ],
    });
    expect(Object.keys(files).sort()).toEqual([
      "SOUL.md",
      "WORKING.md",
      "memory/core/identity.md",
      "memory/core/procedures.md",
      "memory/daily/2026-02-14.md",
      "memory/learning/decisions/offer-tuesday-first-55555555.md",
      "memory/working/pending.md",
      "memory/working/projects/website-refresh-44444444.md",
    ]);
    expect(files["memory/core/identity.md"]).toContain("- Client: Sunrise Plumbing");
    expect(files["memory/core/procedures.md"]).toMatch(/## Escalate leaks to Sam[\s\S]*## Quote within 24h/);
    expect(files["memory/working/pending.md"]).toContain("## Friday report");
    const decision = files["memory/learning/decisions/offer-tuesday-first-55555555.md"]!;
    expect(decision).toContain('tags: ["scheduling"]');
    expect(decision).toContain("- Alternatives: Monday");
    expect(decision).toContain("- Success: no");
  });
});
