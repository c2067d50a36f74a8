import { describe, expect, it } from "vitest";
import { countCaption } from "@/components/review/labels";

describe("the review queue's count", () => {
  it("counts distinct source messages, and never a suggestion without one as a message", () => {
    const m = (interactionId: string | null) => ({ interactionId });
    expect(countCaption([m("a"), m("a"), m("b")])).toBe("3 suggestions from 2 messages");
    expect(countCaption([m("a")])).toBe("1 suggestion from 1 message");
    expect(countCaption([m(null), m(null)])).toBe("2 suggestions, none from a source message");
    expect(countCaption([m("a"), m("a"), m("b"), m(null), m(null)])).toBe("5 suggestions: 3 from 2 messages, 2 without a source message");
  });
});
