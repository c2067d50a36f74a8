import { describe, expect, it } from "vitest";
import { z } from "zod";
import { humanValidationMessage } from "@/lib/console/validation-wording";
import { knowledgeCategory } from "@/lib/knowledge/schemas";

const messageOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected a validation failure");
  return r.error.issues[0]!.message;
};

describe("validation messages under form fields", () => {
  it("put zod's default wording in plain words", () => {
    expect(humanValidationMessage(messageOf(z.string().min(1), ""))).toBe("Required");
    expect(humanValidationMessage(messageOf(z.string().min(8), "short"))).toBe("At least 8 characters");
    expect(humanValidationMessage(messageOf(z.string().max(2000), "x".repeat(2001)))).toBe("At most 2,000 characters");
    expect(humanValidationMessage(messageOf(z.object({ a: z.string() }), {}))).toBe("Required");
    expect(humanValidationMessage(messageOf(z.enum(["a-b", "c"]), "x"))).toBe("Choose one of the options");
  });

  it("never show a list of slugs, and start with a capital", () => {
    expect(humanValidationMessage(messageOf(knowledgeCategory, "nope"))).toBe("Choose a category");
    expect(humanValidationMessage("title is required")).toBe("Title is required");
  });
});
