import { describe, expect, it } from "vitest";
import { z } from "zod";
import { limitsInWords } from "@/lib/json-schema";
import { fromZod } from "@/lib/json-schema/from-zod";
import { schemaNotes } from "@/lib/sdk/package/types";

// One wording of a schema's limits for the Docs page and the client package's doc comments.
describe("limits in words", () => {
  it("says exclusive bounds as exclusive, inclusive ones as ranges", () => {
    expect(limitsInWords(fromZod(z.number().min(0.4).max(1)))).toEqual(["0.4–1"]);
    expect(limitsInWords(fromZod(z.number().gt(0)))).toEqual(["more than 0"]);
    expect(limitsInWords(fromZod(z.number().gt(0).max(1)))).toEqual(["more than 0 and at most 1"]);
    expect(limitsInWords(fromZod(z.number().lt(10)))).toEqual(["less than 10"]);
  });

  it("leaves out the safe-integer range z.int() states", () => {
    expect(limitsInWords(fromZod(z.int()))).toEqual([]);
    expect(limitsInWords(fromZod(z.int().min(1)))).toEqual(["at least 1"]);
  });

  it("counts characters and items, and an array's items' own limits", () => {
    expect(limitsInWords(fromZod(z.string().min(1).max(200)))).toEqual(["1–200 characters"]);
    expect(limitsInWords(fromZod(z.array(z.string().max(50)).max(30)))).toEqual(["at most 30 items", "each at most 50 characters"]);
  });

  it("is what the client package's doc comments say too", () => {
    const gt = fromZod(z.number().gt(0).describe("how much"));
    expect(schemaNotes(gt)).toEqual(["how much", "more than 0"]);
    expect(schemaNotes(fromZod(z.int().min(1).max(50)))).toEqual(["integer; 1–50"]);
  });
});
