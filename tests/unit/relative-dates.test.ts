import { describe, expect, it } from "vitest";
import { relativeDatesLine, resolveRelativeDates } from "@/lib/retrieval/context/relative-dates";
import { formatMemories, formatRetrievedContext } from "@/lib/retrieval/context/format";

// Monday 9 October 2023, in the afternoon (UTC)
const SAID = "2023-10-09T15:30:00Z";
const means = (text: string, said = SAID) => Object.fromEntries(resolveRelativeDates(text, said).map((r) => [r.expression.toLowerCase(), r.means]));

describe("times relative to when a text was said", () => {
  it("resolves days, weeks, weekends, months and years against the day it was said", () => {
    expect(means("Yesterday I won; tomorrow we celebrate. Last night was long.")).toEqual({
      yesterday: "8 October 2023",
      tomorrow: "10 October 2023",
      "last night": "the night of 8 October 2023",
    });
    expect(means("last week, next week, last weekend, this weekend")).toEqual({
      "last week": "the week before 9 October 2023",
      "next week": "the week after 9 October 2023",
      "last weekend": "the weekend before 9 October 2023",
      "this weekend": "the weekend of 9 October 2023",
    });
    expect(means("last month and next month; last year, this year, next year")).toEqual({
      "last month": "September 2023",
      "next month": "November 2023",
      "last year": "2022",
      "this year": "2023",
      "next year": "2024",
    });
    // across a year's end
    expect(means("last month", "2024-01-07T10:00:00Z")).toEqual({ "last month": "December 2023" });
  });

  it("finds the weekday before or after, never the day itself", () => {
    expect(means("Last Friday I went; next Monday I go back; last Monday too")).toEqual({
      "last friday": "Friday 6 October 2023",
      "next monday": "Monday 16 October 2023",
      "last monday": "Monday 2 October 2023",
    });
  });

  it("counts back days, weeks, months and years; a vague count stays vague", () => {
    expect(means("two days ago, 3 weeks ago, a month ago, around 3 years ago, a few days ago, a couple of years ago")).toEqual({
      "two days ago": "7 October 2023",
      "3 weeks ago": "the week of 18 September 2023",
      "a month ago": "September 2023",
      "3 years ago": "2020",
      "a few days ago": "a few days before 9 October 2023",
      "a couple of years ago": "a few years before 2023",
    });
  });

  it("places last season in the year it was last over", () => {
    expect(means("last summer")).toEqual({ "last summer": "summer 2023" });
    expect(means("last summer", "2023-05-01T00:00:00Z")).toEqual({ "last summer": "summer 2022" });
    expect(means("last winter", "2023-03-10T00:00:00Z")).toEqual({ "last winter": "winter 2022–2023" });
    expect(means("last winter", "2023-01-10T00:00:00Z")).toEqual({ "last winter": "winter 2021–2022" });
  });

  it("says nothing of a text without relative times, or of a time it cannot read", () => {
    expect(resolveRelativeDates("We met in May 2023 at the lake.", SAID)).toEqual([]);
    expect(resolveRelativeDates("yesterday", "not a date")).toEqual([]);
    expect(relativeDatesLine("No dates here.", SAID)).toBe("");
    // a named week or year is not the one before the day it was said
    expect(resolveRelativeDates("The last week of July was my last year at school.", SAID)).toEqual([]);
  });

  it("lists each expression once, in the order of the text", () => {
    expect(relativeDatesLine("Last week was hard. Yesterday too, like last week.", SAID)).toBe(
      '(said 9 October 2023: "Last week" = the week before 9 October 2023; "Yesterday" = 8 October 2023)',
    );
  });
});

describe("the context an agent reads resolves them", () => {
  it("under a retrieved turn, against when it was said", () => {
    const text = formatRetrievedContext({
      level: "local",
      triggers: [],
      items: [{ source: "interactions", id: "i", title: "From Nate (chat)", content: "I won a tournament yesterday!", score: 1, createdAt: SAID, meta: { channel: "chat" } }],
    });
    expect(text).toContain('I won a tournament yesterday!\n(said 9 October 2023: "yesterday" = 8 October 2023)');
  });

  it("not under a knowledge entry or a document, whose date is when it was stored", () => {
    const text = formatRetrievedContext({
      level: "hq",
      triggers: [],
      items: [
        { source: "knowledge", id: "k", title: "Prices", content: "Prices rose last year.", score: 1, createdAt: SAID, meta: {} },
        { source: "documents", id: "d", title: "Notes", content: "Moved offices last month.", score: 1, createdAt: SAID, meta: {} },
      ],
    });
    expect(text).not.toContain("(said");
  });

  it("after a memory, against when it happened", () => {
    const line = formatMemories([{ id: "m", tier: "learning", category: "insight", title: "Dana's heater", content: "Replaced the filter last week", occurredAt: SAID }]);
    expect(line).toBe(
      '- learning/insight · 2023-10-09 — Dana\'s heater: Replaced the filter last week (said 9 October 2023: "last week" = the week before 9 October 2023)',
    );
  });
});
