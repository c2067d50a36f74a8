import { describe, expect, it } from "vitest";
import { embedLocal, LOCAL_DIMENSIONS } from "@/lib/embeddings/local";
import { toVectorLiteral } from "@/lib/embeddings";

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("the local embedder", () => {
  it("is deterministic, 101-dimensional and unit length", () => {
    const a = embedLocal("How do I escalate a failed payment?");
    expect(a).toHaveLength(LOCAL_DIMENSIONS);
    expect(LOCAL_DIMENSIONS).toBe(101);
    expect(embedLocal("How do I escalate a failed payment?")).toEqual(a);
    expect(cosine(a, a)).toBeCloseTo(1, 6);
    expect(cosine(embedLocal(""), embedLocal(""))).toBeCloseTo(1, 6);
    // a text without a known word is unlike every text with one
    expect(cosine(embedLocal("zzqx"), a)).toBe(0);
  });

  it("places texts that share words closer than unrelated texts", () => {
    const q = embedLocal("escalation procedure for failed payments");
    const near = embedLocal("When a payment fails, follow the escalation procedure and call HQ");
    const far = embedLocal("Quarterly investing strategy for BTC funding rates");
    expect(cosine(q, near)).toBeGreaterThan(cosine(q, far) + 0.2);
  });

  it("formats vectors for pgvector", () => {
    expect(toVectorLiteral([0.5, -0.25, 1 / 3])).toBe("[0.5,-0.25,0.333333]");
  });
});
