import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACTION_LABELS, actionLabel } from "@/lib/audit/labels";

const root = path.resolve(__dirname, "../..");

/** Every audit action the server writes: `action: "x.y"` passed to recordAudit, or the helpers that forward one. */
function auditActionsInCode(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts")) {
        const text = readFileSync(full, "utf8");
        for (const m of text.matchAll(/action: "([a-z_]+\.[a-z_]+)"/g)) found.add(m[1]!);
        for (const m of text.matchAll(/audit\([^,]+, "([a-z_]+\.[a-z_]+)"/g)) found.add(m[1]!);
      }
    }
  };
  walk(path.join(root, "lib"));
  return [...found].sort();
}

describe("audit action labels", () => {
  it("give every action the server records a label of its own", () => {
    const actions = auditActionsInCode();
    expect(actions).toContain("escalation.create");
    expect(actions).toContain("hq_user.accept_invite");
    expect(actions.filter((a) => !ACTION_LABELS[a])).toEqual([]);
  });

  it("say which agent document a save wrote", () => {
    expect(actionLabel("document.write", { type: "soul", version: 3 })).toBe("Saved SOUL");
    expect(actionLabel("document.write", { type: "working" })).toBe("Saved scratchpad");
    expect(actionLabel("document.write", { type: "daily", date: "2026-11-20" })).toBe("Saved daily note for 2026-11-20");
    expect(actionLabel("document.write", {})).toBe("Saved agent document");
  });

  it("read an unknown code as a past-tense sentence", () => {
    expect(actionLabel("widget.create")).toBe("Created widget");
    expect(actionLabel("playbook_thing.resolve")).toBe("Resolved playbook thing");
    expect(actionLabel("widget.frobnicate")).toBe("Widget frobnicate");
  });
});
