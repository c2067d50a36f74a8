import { describe, expect, it } from "vitest";
import { loadTriggerSet, scoreTriggerSet } from "@/tests/helpers/trigger-set";

// The smart trigger against its labelled development set (tests/fixtures/trigger-dev-set.json):
// fresh messages from internal and field agents at every level. A wrong `none` is the costly error
// (the agent answers without the context it needed), so there must be none of those; other
// mismatches (`shared` where `local` would do, a search for a message that needed none) are cheap
// and only bounded by the overall accuracy.
const dev = loadTriggerSet("dev");
const holdout = loadTriggerSet("holdout");

describe("the trigger development set", () => {
  it("covers both agent kinds at every level with at least 300 distinct messages", () => {
    expect(dev.messages.length).toBeGreaterThanOrEqual(300);
    const counts = new Map<string, number>();
    for (const m of dev.messages) counts.set(`${m.agentKind}:${m.expected}`, (counts.get(`${m.agentKind}:${m.expected}`) ?? 0) + 1);
    for (const key of ["internal:none", "internal:local", "internal:shared", "field:none", "field:local", "field:hq"]) {
      expect(counts.get(key) ?? 0, key).toBeGreaterThanOrEqual(40);
    }
    expect([...counts.keys()].sort()).toEqual(["field:hq", "field:local", "field:none", "internal:local", "internal:none", "internal:shared"]);
    const all = [...dev.messages, ...holdout.messages].map((m) => m.message.toLowerCase());
    expect(new Set(all).size).toBe(all.length);
  });

  it("never answers none to a message that needs context", () => {
    const score = scoreTriggerSet(dev);
    expect(score.neededButNone.map((m) => `${m.agentKind}/${m.expected}: ${m.message}`)).toEqual([]);
  });

  it("classifies at least 95% of the messages at their level", () => {
    const score = scoreTriggerSet(dev);
    expect(score.accuracy, score.wrong.map((w) => `${w.agentKind} ${w.expected}→${w.got}: ${w.message}`).join("\n")).toBeGreaterThanOrEqual(0.95);
  });

  it("keeps the level per agent kind, not only overall", () => {
    for (const kind of ["internal", "field"] as const) {
      expect(scoreTriggerSet(dev, (m) => m.agentKind === kind).accuracy, kind).toBeGreaterThanOrEqual(0.95);
    }
  });
});
