import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/auth/next-path";

describe("safeNextPath", () => {
  it("keeps a console path with its query", () => {
    expect(safeNextPath("/knowledge/3f1c?tab=history")).toBe("/knowledge/3f1c?tab=history");
    expect(safeNextPath("/audit?area=memory")).toBe("/audit?area=memory");
    // an encoded backslash stays part of this site's path
    expect(safeNextPath("/%5Cevil")).toBe("/%5Cevil");
    // dot segments are resolved; what stays on this site is kept
    expect(safeNextPath("/agents/./x/../y")).toBe("/agents/y");
  });

  it("returns only paths that are themselves safe (resolving the result again changes nothing)", () => {
    for (const raw of ["/a/b/../c?x=1#h", "/%2e/agents", "/agents//x", "/./agents"]) {
      const once = safeNextPath(raw);
      expect(once, raw).not.toBeNull();
      expect(safeNextPath(once), raw).toBe(once);
      expect(once!.startsWith("//")).toBe(false);
    }
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
      // paths that only become another origin once resolved: the check applies to what is returned
      "/.//evil.example",
      "/./\\evil.example",
      "/x/..//evil.example",
      "/x/../..//evil.example/path?q=1",
      "/%2e//evil.example",
      "/%2E%2E//evil.example",
      "/..//evil.example",
      "/agents/%2e%2e/%2e%2e//evil.example",
      "/x/../login",
      "/%2e/api/v1/agents",
    ]) {
      expect(safeNextPath(bad), String(bad)).toBeNull();
    }
  });
});
