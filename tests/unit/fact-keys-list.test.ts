import { describe, expect, it } from "vitest";
import { parseFactKeys } from "@/lib/console/fact-keys";

describe("a fact-key allow-list as typed in the console", () => {
  it("takes one key between each comma or line break, lowercased, each once", () => {
    expect(parseFactKeys("budget, Water_Heater\nroof.age ,, budget\n")).toEqual({ keys: ["budget", "water_heater", "roof.age"] });
    expect(parseFactKeys("  ")).toEqual({ keys: [] });
  });

  it("refuses a key with a space instead of splitting it, and suggests the key it may mean", () => {
    expect(parseFactKeys("budget, Roof Age, warranty_until")).toEqual({
      error: "“roof age” is not a key: use lowercase letters, digits, dots, dashes and underscores (“roof_age”?)",
    });
    expect(parseFactKeys("gate code!")).toEqual({ error: "“gate code!” is not a key: use lowercase letters, digits, dots, dashes and underscores" });
  });
});
