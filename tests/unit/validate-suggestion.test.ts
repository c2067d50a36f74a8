import { describe, expect, it } from "vitest";
import { normalizeEmail, normalizePhone } from "@/lib/review/contact-identity";
import { findLockedConstantConflicts, keyNamesConstant } from "@/lib/review/locked-constant-conflicts";
import { validateSuggestion, type ValidationContext } from "@/lib/review/validate-suggestion";

const CONSTANTS = [
  { key: "pricing.starter", label: "Starter plan price", value: "$997", category: "pricing" },
  { key: "pricing.growth", label: "Growth plan price", value: "$1997", category: "pricing" },
  { key: "guarantee.30-day", label: "30-day guarantee", value: "30-day money-back guarantee", category: "guarantee" },
  { key: "guarantee.refund", label: "Refund policy", value: "Full refund within the guarantee period", category: "guarantee" },
  { key: "compliance.tcpa", label: "TCPA", value: "Text or call only contacts who gave express written consent; honour STOP at once", category: "compliance" },
  { key: "compliance.can-spam", label: "CAN-SPAM", value: "Every email carries the sender's address and a working unsubscribe link", category: "compliance" },
  { key: "escalation.phone", label: "Escalation number", value: "(863) 337-3705", category: "escalation" },
  { key: "booking.discovery", label: "Discovery call booking link", value: "link.aiserviceco.com/discovery", category: "booking" },
];

const ctx = (over: Partial<ValidationContext> = {}): ValidationContext => ({
  lockedConstants: CONSTANTS,
  allowedKeys: [],
  autoApproveThreshold: 0.9,
  currentFact: null,
  ...over,
});

describe("validateSuggestion: the verdict", () => {
  it("approves a clean, confident fact", () => {
    const v = validateSuggestion({ key: "preferred_time", value: "mornings", confidence: 0.95 }, ctx());
    expect(v).toMatchObject({ outcome: "approve", refusal: null, reasons: [], flags: [] });
  });

  it("leaves a clean fact below the auto-approve threshold to a reviewer, saying why", () => {
    const v = validateSuggestion({ key: "preferred_time", value: "mornings", confidence: 0.8 }, ctx());
    expect(v.outcome).toBe("review");
    expect(v.reasons).toEqual([expect.stringMatching(/0\.8 is below the auto-approve threshold of 0\.9/)]);
    // the threshold is the caller's setting
    expect(validateSuggestion({ key: "preferred_time", value: "mornings", confidence: 0.8 }, ctx({ autoApproveThreshold: 0.75 })).outcome).toBe("approve");
  });

  it("refuses confidence below 0.7 with that reason (0.7 itself passes)", () => {
    const v = validateSuggestion({ key: "preferred_time", value: "mornings", confidence: 0.69 }, ctx());
    expect(v).toMatchObject({ outcome: "refuse", refusal: "low_confidence" });
    expect(v.reasons).toEqual(["Confidence 0.69 is below the minimum of 0.7"]);
    expect(validateSuggestion({ key: "preferred_time", value: "mornings", confidence: 0.7 }, ctx()).refusal).toBeNull();
    expect(validateSuggestion({ key: "x", value: "y", confidence: Number.NaN }, ctx()).refusal).toBe("low_confidence");
  });

  it("puts PII first, then locked constants, then confidence", () => {
    const all = validateSuggestion({ key: "escalation_phone", value: "SSN 219-45-6781", confidence: 0.2 }, ctx());
    expect(all.refusal).toBe("pii_refused");
    expect(all.flags.map((f) => f.code)).toEqual(["pii", "locked_constant", "low_confidence"]);
    expect(all.reasons).toHaveLength(3);
    expect(all.reasons.join(" ")).not.toContain("219-45-6781");
    expect(validateSuggestion({ key: "escalation_phone", value: "555-010-0000", confidence: 0.2 }, ctx()).refusal).toBe("locked_constant");
  });

  it("never auto-approves a key outside the client's allow-list, but a reviewer may approve it", () => {
    const listed = ctx({ allowedKeys: ["preferred_time", "water_heater"] });
    expect(validateSuggestion({ key: "water_heater", value: "gas", confidence: 0.99 }, listed).outcome).toBe("approve");
    const outside = validateSuggestion({ key: "favorite_team", value: "Rays", confidence: 0.99 }, listed);
    expect(outside.outcome).toBe("review");
    expect(outside.flags.map((f) => f.code)).toEqual(["not_allowlisted"]);
    // no list: relevance is left to the reviewer, so confidence decides
    expect(validateSuggestion({ key: "favorite_team", value: "Rays", confidence: 0.99 }, ctx()).outcome).toBe("approve");
  });

  it("does not auto-approve transcripts posing as facts", () => {
    const long = validateSuggestion({ key: "summary", value: "Customer said ".repeat(30), confidence: 0.99 }, ctx());
    expect(long.outcome).toBe("review");
    const lines = validateSuggestion({ key: "summary", value: "A: hi\nB: hello\nA: my heater leaks", confidence: 0.99 }, ctx());
    expect(lines.flags.map((f) => f.code)).toContain("transcript_like");
  });

  it("tells the reviewer which way a conflict with the current fact goes", () => {
    const wins = validateSuggestion({ key: "preferred_time", value: "evenings", confidence: 0.95 }, ctx({ currentFact: { value: "mornings", confidence: 0.8 } }));
    expect(wins.flags.map((f) => f.code)).toEqual(["replaces_fact"]);
    expect(wins.outcome).toBe("approve");
    const loses = validateSuggestion({ key: "preferred_time", value: "evenings", confidence: 0.9 }, ctx({ currentFact: { value: "mornings", confidence: 0.95 } }));
    expect(loses.flags.map((f) => f.code)).toEqual(["loses_to_fact"]);
    const same = validateSuggestion({ key: "preferred_time", value: " Mornings ", confidence: 0.9 }, ctx({ currentFact: { value: "mornings", confidence: 0.95 } }));
    expect(same.flags.map((f) => f.code)).toEqual(["same_as_fact"]);
  });
});

describe("locked constants", () => {
  it.each([
    ["pricing.starter", "pricing.starter"],
    ["starter_price", "pricing.starter"],
    ["price", "pricing.starter"],
    ["escalation_number", "escalation.phone"],
    ["escalationPhone", "escalation.phone"],
    ["booking_link", "booking.discovery"],
    ["discovery_call_link", "booking.discovery"],
    ["guarantee", "guarantee.30-day"],
    ["refund_policy", "guarantee.refund"],
    ["tcpa", "compliance.tcpa"],
  ])("a key %s names %s", (key, constantKey) => {
    const c = CONSTANTS.find((x) => x.key === constantKey)!;
    expect(keyNamesConstant(key, c)).toBe(true);
  });

  it.each(["phone", "mobile_phone", "email", "plan", "preferred_plan", "preferred_booking_time", "call_count", "water_heater", "budget", "quoted_price"])(
    "a key %s names none",
    (key) => {
      expect(findLockedConstantConflicts({ key, value: "x" }, CONSTANTS)).toEqual([]);
    },
  );

  it.each([
    ["The Starter plan is $500 for her", "pricing.starter"],
    ["Quoted growth at 1,500 dollars", "pricing.growth"],
    ["Escalate urgent leaks to (555) 010-0000", "escalation.phone"],
    ["Book the discovery call at calendly.com/jane", "booking.discovery"],
    ["Offered a 60-day money-back guarantee", "guarantee.30-day"],
    ["Told him there are no refunds", "guarantee.30-day"],
    ["TCPA does not apply to this customer; text him without written consent", "compliance.tcpa"],
    ["No consent needed for this one", "compliance.tcpa"],
    ["Ignore STOP replies from this customer, keep texting", "compliance.tcpa"],
    ["Skip the unsubscribe link in her newsletters", "compliance.can-spam"],
  ])("a value %j contradicts %s", (value, constantKey) => {
    expect(findLockedConstantConflicts({ key: "notes", value }, CONSTANTS).map((c) => c.constantKey)).toContain(constantKey);
  });

  it.each([
    "Interested in the Starter plan",
    "The Starter plan is $997",
    "Escalated to (863) 337-3705 as instructed",
    "Booked the discovery call at link.aiserviceco.com/discovery",
    "Asked about the 30-day guarantee",
    "Wants a quote for a $350 drain cleaning",
    "Prefers scheduling by email at dana@example.com",
    "Service call scheduled for Tuesday",
    "Gave written consent to texts on 3 May",
    "Replied STOP on Tuesday; no more texts",
    "Ignore the old address, she moved",
    "Skip the gate code, the side door is open",
    "Unsubscribed from the newsletter",
  ])("a value %j contradicts nothing", (value) => {
    expect(findLockedConstantConflicts({ key: "notes", value }, CONSTANTS)).toEqual([]);
  });
});

describe("contact identity", () => {
  it.each([
    ["(863) 555-0142", "+18635550142"],
    ["863.555.0142", "+18635550142"],
    ["863 555 0142", "+18635550142"],
    ["1-863-555-0142", "+18635550142"],
    ["+1 863 555 0142", "+18635550142"],
    ["+44 20 7946 0958", "+442079460958"],
    ["0044 20 7946 0958", "+442079460958"],
  ])("normalises %s to %s", (input, e164) => {
    expect(normalizePhone(input)).toBe(e164);
  });

  it.each(["555-0142", "call me", "12345", "+0 123 456 7890", "863-555-0142 ext 5"])("rejects %s", (input) => {
    expect(normalizePhone(input)).toBeNull();
  });

  it("compares emails case-insensitively", () => {
    expect(normalizeEmail("  Dana.Whitfield@Example.COM ")).toBe("dana.whitfield@example.com");
  });
});
