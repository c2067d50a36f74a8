import { describe, expect, it } from "vitest";
import {
  formatBriefing,
  formatLockedConstants,
  formatMemories,
  formatRetrievedContext,
  joinSections,
  truncate,
  type BriefingData,
} from "@/lib/retrieval/context/format";

describe("the retrieved context block", () => {
  it("numbers the items best first, says where each came from and why retrieval ran", () => {
    const text = formatRetrievedContext({
      level: "hq",
      triggers: [{ kind: "procedural", match: "how do i" }],
      items: [
        {
          source: "knowledge",
          id: "k",
          title: "Rescheduling a job",
          content: "Offer two slots, confirm by SMS.",
          score: 1,
          createdAt: "2026-02-15T10:00:00Z",
          meta: { category: "procedure" },
        },
        {
          source: "interactions",
          id: "i",
          title: "From Maria (sms)",
          content: "Can we move Tuesday's visit?",
          score: 0.5,
          createdAt: "2026-02-14T09:30:00Z",
          meta: { channel: "sms" },
        },
        {
          source: "memories",
          id: "m",
          title: "Maria prefers mornings",
          content: "",
          score: 0.4,
          createdAt: "2026-01-02T00:00:00Z",
          meta: { tier: "core", category: "preference" },
        },
      ],
    });
    expect(text).toBe(
      [
        "═══ RETRIEVED CONTEXT ═══",
        'Retrieval level: hq — procedural: "how do i"',
        "",
        "[1] HQ knowledge base (procedure, 2026-02-15) — Rescheduling a job",
        "Offer two slots, confirm by SMS.",
        "",
        "[2] Conversation (2026-02-14) — From Maria (sms)",
        "Can we move Tuesday's visit?",
        "",
        "[3] Memory (core/preference, 2026-01-02) — Maria prefers mornings",
      ].join("\n"),
    );
  });

  it("is empty when nothing was retrieved", () => {
    expect(formatRetrievedContext({ level: "none", triggers: [], items: [] })).toBe("");
    expect(formatRetrievedContext({ level: "local", triggers: [{ kind: "correction", match: "actually" }], items: [] })).toBe("");
  });

  it("cuts long items at a word boundary", () => {
    const long = "word ".repeat(400);
    const out = truncate(long, 100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out.endsWith("word…")).toBe(true);
    expect(truncate("short", 100)).toBe("short");
  });
});

describe("the assembled context", () => {
  it("puts every non-empty section under its banner, in order", () => {
    const text = joinSections([
      { key: "soul", title: "SOUL", content: "I am Santos." },
      { key: "scratchpad", title: "SCRATCHPAD", content: "   " },
      { key: "situation", title: "CURRENT SITUATION", content: "Nothing new." },
      { key: "memories", title: "RELEVANT MEMORIES", content: "- a memory" },
      { key: "constants", title: "LOCKED CONSTANTS", content: "" },
    ]);
    expect(text).toBe(
      "═══ SOUL ═══\nI am Santos.\n\n═══ CURRENT SITUATION ═══\nNothing new.\n\n═══ RELEVANT MEMORIES ═══\n- a memory",
    );
  });

  it("formats memories and locked constants as lines", () => {
    expect(
      formatMemories([
        { id: "1", tier: "learning", category: "decision", title: "Short BTC", content: "Funding rate spiked.", occurredAt: "2026-02-15T08:00:00Z" },
        { id: "2", tier: "core", category: "principle", title: "Time is never an issue", content: "", occurredAt: "2026-02-01T08:00:00Z" },
      ]),
    ).toBe("- learning/decision · 2026-02-15 — Short BTC: Funding rate spiked.\n- core/principle · 2026-02-01 — Time is never an issue");
    expect(formatLockedConstants([{ key: "pricing.starter", label: "Starter plan price", value: "$997" }])).toBe(
      "Fixed by HQ. Quote them exactly; never change, negotiate or contradict them.\n- Starter plan price (pricing.starter): $997",
    );
    expect(formatLockedConstants([])).toBe("");
  });
});

describe("the situational briefing text", () => {
  const empty: BriefingData = {
    windowHours: 6,
    since: "2026-11-21T06:00:00Z",
    events: [],
    missions: [],
    interactions: [],
    proposals: { suggestions: { count: 0, items: [] }, playbookUpdates: { count: 0, items: [] } },
  };

  it("says plainly when nothing happened", () => {
    expect(formatBriefing(empty)).toBe(
      [
        "Last 6 hours (since 2026-11-21 06:00 UTC).",
        "",
        "Recent events: none in the last 6 hours.",
        "",
        "Active missions: none.",
        "",
        "Conversations you were not part of: none.",
        "",
        "Pending proposals: none.",
      ].join("\n"),
    );
  });

  it("lists events, missions, others' conversations and proposals; unseen agents read as HQ", () => {
    const text = formatBriefing({
      ...empty,
      events: [{ id: "00000000-0000-4000-8000-000000000001", occurredAt: "2026-11-21T10:15:00Z", agentName: null, kind: "sms.send", outcome: "failure", summary: "Provider timed out" }],
      missions: [{ id: "00000000-0000-4000-8000-000000000002", title: "Deploy Santos", status: "active", summary: "Live on SMS", updatedAt: "2026-11-21T08:00:00Z" }],
      interactions: [
        { id: "00000000-0000-4000-8000-000000000003", occurredAt: "2026-11-21T09:00:00Z", agentName: "Sage", channel: "email", direction: "inbound", speaker: "Maria", excerpt: "Thanks!" },
      ],
      proposals: {
        suggestions: { count: 3, items: [{ id: "00000000-0000-4000-8000-000000000004", key: "preferred_time", value: "mornings", confidence: 0.8, contactName: "Maria Lopez", proposedByName: "Santos", createdAt: "2026-11-21T08:00:00Z" }] },
        playbookUpdates: { count: 1, items: [{ id: "00000000-0000-4000-8000-000000000005", area: "follow-up", title: "Shorter reminder", agentName: "Santos", createdAt: "2026-11-21T08:00:00Z" }] },
      },
    });
    expect(text).toContain("Recent events (1):\n- 2026-11-21 10:15 UTC HQ — sms.send (failure): Provider timed out");
    expect(text).toContain("Active missions (1):\n- [active] Deploy Santos — Live on SMS");
    expect(text).toContain('Conversations you were not part of (1):\n- 2026-11-21 09:00 UTC Sage · email inbound Maria: "Thanks!"');
    expect(text).toContain("Pending proposals: 3 memory suggestions, 1 playbook update.");
    expect(text).toContain("- suggestion: Maria Lopez · preferred_time = mornings (confidence 0.80, by Santos)");
    expect(text).toContain("- playbook [follow-up]: Shorter reminder (by Santos)");
  });
});
