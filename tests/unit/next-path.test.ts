import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/auth/next-path";

describe("safeNextPath", () => {
  it("keeps a console path with its query", () => {
    expect(safeNextPath("/knowledge/3f1c?tab=history")).toBe("/knowledge/3f1c?tab=history");
    expect(safeNextPath("/audit?area=memory")).toBe("/audit?area=memory");
    // an encoded backslash stays part of this site's path
    expect(safeNextPath("/%5Cevil")).toBe("/%5Cevil");
  });

  it("refuses anything that could leave the site or loop back to sign-in", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "agents",
      "/login?next=/agents",
      "/setup",
      "/api/v1/agents",
      "/agents\n/x",
      "",
      null,
      undefined,
      `/${"a".repeat(2001)}`,
    ]) {
      expect(safeNextPath(bad), String(bad)).toBeNull();
    }
  });
});
