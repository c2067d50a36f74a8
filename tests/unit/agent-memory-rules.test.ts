import { describe, expect, it } from "vitest";
import { charCount, putDocumentBody } from "@/lib/documents/schemas";
import { todayIn } from "@/lib/documents/today";
import { categoryFitsTier, expiresAtFor, memoryEmbeddingText } from "@/lib/memories/rules";
import { createMemoryBody, updateMemoryBody } from "@/lib/memories/schemas";

const now = new Date("2026-02-15T12:00:00Z");

describe("memory_write rules", () => {
  it("expires low-confidence learning entries after 7 days and nothing else", () => {
    expect(expiresAtFor("learning", 0.49, now)?.toISOString()).toBe("2026-02-22T12:00:00.000Z");
    expect(expiresAtFor("learning", 0.4, now)?.toISOString()).toBe("2026-02-22T12:00:00.000Z");
    expect(expiresAtFor("learning", 0.5, now)).toBeNull();
    expect(expiresAtFor("core", 0.4, now)).toBeNull();
    expect(expiresAtFor("working", 0.45, now)).toBeNull();
  });

  it("pairs categories with their tier", () => {
    expect(categoryFitsTier("core", "principle")).toBe(true);
    expect(categoryFitsTier("working", "commitment")).toBe(true);
    expect(categoryFitsTier("learning", "decision")).toBe(true);
    expect(categoryFitsTier("learning", "commitment")).toBe(false);
    expect(categoryFitsTier("core", "insight")).toBe(false);
  });

  it("validates a memory: title ≤ 200, confidence ≥ 0.4, strict fields", () => {
    const base = { tier: "learning", category: "insight", title: "t", confidence: 0.4 };
    expect(createMemoryBody.safeParse(base).success).toBe(true);
    expect(createMemoryBody.safeParse({ ...base, confidence: 0.39 }).success).toBe(false);
    expect(createMemoryBody.safeParse({ ...base, confidence: 1.01 }).success).toBe(false);
    expect(createMemoryBody.safeParse({ ...base, title: "x".repeat(200) }).success).toBe(true);
    expect(createMemoryBody.safeParse({ ...base, title: "x".repeat(201) }).success).toBe(false);
    expect(createMemoryBody.safeParse({ ...base, title: "   " }).success).toBe(false);
    expect(createMemoryBody.safeParse({ ...base, category: "project" }).success).toBe(false);
    expect(createMemoryBody.safeParse({ ...base, extra: 1 }).success).toBe(false);
    expect(updateMemoryBody.safeParse({ expectedVersion: 2 }).success).toBe(false);
    expect(updateMemoryBody.safeParse({ status: "resolved" }).success).toBe(true);
  });

  it("embeds title and content together, or the title alone", () => {
    expect(memoryEmbeddingText({ title: "T", content: "" })).toBe("T");
    expect(memoryEmbeddingText({ title: "T", content: "C" })).toBe("T\n\nC");
  });
});

describe("documents", () => {
  it("counts characters as code points, like Postgres", () => {
    expect(charCount("abc")).toBe(3);
    expect(charCount("🧠🧠")).toBe(2);
    expect("🧠🧠".length).toBe(4);
  });

  it("finds today's date in the team's time zone", () => {
    const late = new Date("2026-02-15T23:30:00Z");
    expect(todayIn("UTC", late)).toBe("2026-02-15");
    expect(todayIn("Asia/Tokyo", late)).toBe("2026-02-16");
    expect(todayIn("America/New_York", new Date("2026-02-16T03:00:00Z"))).toBe("2026-02-15");
    // an ISO date always has a four-digit year
    expect(todayIn("UTC", new Date("0999-03-04T12:00:00Z"))).toBe("0999-03-04");
  });

  it("accepts expectedVersion 0 (never written) but not negative versions or unknown fields", () => {
    expect(putDocumentBody.safeParse({ content: "", expectedVersion: 0 }).success).toBe(true);
    expect(putDocumentBody.safeParse({ content: "", expectedVersion: -1 }).success).toBe(false);
    expect(putDocumentBody.safeParse({ content: "", date: "2026-02-30" }).success).toBe(false);
    expect(putDocumentBody.safeParse({ content: "", owner: "x" }).success).toBe(false);
  });
});
