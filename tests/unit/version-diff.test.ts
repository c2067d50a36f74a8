import { describe, expect, it } from "vitest";
import { contentBlocks } from "@/components/knowledge/version-diff";

describe("an entry's content compared line by line", () => {
  it("does not mark a last line as changed because one version ends it with a line break", () => {
    const before = "Call the office first.\nSam: call the on-call lead after 6 pm";
    const after = "Call the office first.\nSam: call the on-call lead after 6 pm\n";
    expect(contentBlocks(before, after).filter((b) => b.kind === "change")).toEqual([]);
  });

  it("still marks a changed last line, and a line added after it", () => {
    const changes = contentBlocks("one\ntwo", "one\ntwo\nthree").filter((b) => b.kind === "change");
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ removed: null, added: [{ value: "three" }] });
  });
});
