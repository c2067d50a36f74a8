import { describe, expect, it } from "vitest";
import { editedValue, queueCaption } from "@/components/review/labels";

describe("the review queue's caption", () => {
  it("says the count and the order as one phrase", () => {
    expect(queueCaption(309, "pending", 100)).toBe("309 pending suggestions, oldest first");
    expect(queueCaption(1, "pending", 1)).toBe("1 pending suggestion, oldest first");
    expect(queueCaption(1234, "approved", 100)).toBe("1,234 approved suggestions, the latest decision first");
  });

  it("says at least what the page holds while the total is unknown", () => {
    expect(queueCaption(null, "pending", 100)).toBe("100+ pending suggestions, oldest first");
  });
});

describe("what an approval stored", () => {
  it("is the reviewer's edit only when it differs from the proposal", () => {
    expect(editedValue({ value: "Tuesday", approvedValue: "Tuesday mornings" })).toBe("Tuesday mornings");
    expect(editedValue({ value: "Tuesday", approvedValue: "Tuesday" })).toBeNull();
    expect(editedValue({ value: "Tuesday", approvedValue: null })).toBeNull();
    expect(editedValue({ value: "Tuesday" })).toBeNull();
  });
});
