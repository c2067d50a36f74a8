import { describe, expect, it } from "vitest";
import { blendMemories } from "@/lib/retrieval/context/blend";
import { fuseResults, scopeWeights, type Candidate } from "@/lib/retrieval/search/fuse";
import { SEARCH_LEXICAL_WEIGHT } from "@/lib/retrieval/search/queries";
import { levelForScopes, normalizeScopes, scopesForLevel } from "@/lib/retrieval/search/scopes";

/**
 * A search's 0–1 score as search_memories, search_documents and search_knowledge weigh it: BM25
 * relative to the query's best hit, and the cosine similarity (null: not in the vector list).
 */
const scored = (lexical: number, cosine: number | null) =>
  SEARCH_LEXICAL_WEIGHT * lexical + (1 - SEARCH_LEXICAL_WEIGHT) * Math.max(cosine ?? 0, 0);

const hit = (source: Candidate["source"], id: string, score: number, createdAt = "2026-01-01T00:00:00Z"): Candidate => ({
  source,
  id,
  title: id,
  content: "",
  score,
  createdAt,
});

describe("fuseResults", () => {
  it("ranks across scopes by their 0–1 scores", () => {
    const fused = fuseResults(
      {
        memories: [hit("memories", "m1", scored(0.8, 0.5)), hit("memories", "m2", scored(0, 0.9))],
        knowledge: [hit("knowledge", "k1", scored(1, 0.9)), hit("knowledge", "k2", scored(0.3, null))],
        // a conversation turn's score weighs its own signals; only the 0–1 number takes part here
        interactions: [hit("interactions", "i1", 0.9)],
      },
      { limit: 10 },
    );
    expect(fused.map((f) => f.id)).toEqual(["k1", "i1", "m1", "m2", "k2"]);
    expect(fused[0]!.score).toBeCloseTo(0.96, 10);
    expect(fused[1]!.score).toBe(0.9);
    expect(fused.every((f) => f.score > 0 && f.score <= 1)).toBe(true);
  });

  it("cuts to the limit after ranking, not per scope", () => {
    const fused = fuseResults(
      {
        memories: [hit("memories", "m1", scored(0.2, 0.2)), hit("memories", "m2", scored(0.1, 0.1))],
        team: [hit("team", "t1", scored(1, 1)), hit("team", "t2", scored(0.9, 0.8))],
      },
      { limit: 2 },
    );
    expect(fused.map((f) => f.id)).toEqual(["t1", "t2"]);
  });

  it("breaks ties local first, then newest first", () => {
    const same = scored(1, null);
    const fused = fuseResults(
      {
        knowledge: [hit("knowledge", "k", same, "2026-03-01T00:00:00Z")],
        team: [hit("team", "t", same, "2026-03-01T00:00:00Z")],
        memories: [hit("memories", "old", same, "2026-01-01T00:00:00Z"), hit("memories", "new", same, "2026-02-01T00:00:00Z")],
      },
      { limit: 10 },
    );
    expect(fused.map((f) => f.id)).toEqual(["new", "old", "t", "k"]);
  });

  it("keeps one copy of a duplicate, with its best score, and applies scope weights", () => {
    const fused = fuseResults(
      { memories: [hit("memories", "m", scored(0.5, null)), hit("memories", "m", scored(1, 1))], knowledge: [hit("knowledge", "k", scored(1, 1))] },
      { limit: 10, scopeWeights: { knowledge: 0.5 } },
    );
    expect(fused).toHaveLength(2);
    expect(fused.map((f) => [f.id, f.score])).toEqual([
      ["m", scored(1, 1)],
      ["k", scored(1, 1) * 0.5],
    ]);
  });

  it("answers nothing for no lists or a zero limit", () => {
    expect(fuseResults({}, { limit: 5 })).toEqual([]);
    expect(fuseResults({ memories: [hit("memories", "m", 0.02)] }, { limit: 0 })).toEqual([]);
  });
});

describe("blendMemories (top 3 by relevance + top 2 by recency, deduplicated)", () => {
  const m = (id: string) => ({ id });

  it("takes three relevant, then the two newest not already taken", () => {
    const out = blendMemories([m("r1"), m("r2"), m("r3"), m("r4")], [m("r2"), m("n1"), m("r1"), m("n2"), m("n3")]);
    expect(out.map((o) => [o.memory.id, o.reason])).toEqual([
      ["r1", "relevance"],
      ["r2", "relevance"],
      ["r3", "relevance"],
      ["n1", "recency"],
      ["n2", "recency"],
    ]);
  });

  it("fills from recency when fewer memories are relevant", () => {
    const out = blendMemories([m("r1")], [m("n1"), m("r1"), m("n2"), m("n3"), m("n4"), m("n5")]);
    expect(out.map((o) => o.memory.id)).toEqual(["r1", "n1", "n2", "n3", "n4"]);
  });

  it("is pure recency without a relevance ranking (embeddings unavailable)", () => {
    const out = blendMemories([], [m("a"), m("b"), m("c"), m("d"), m("e"), m("f")]);
    expect(out.map((o) => o.memory.id)).toEqual(["a", "b", "c", "d", "e"]);
    expect(new Set(out.map((o) => o.reason))).toEqual(new Set(["recency"]));
  });

  it("never repeats a memory, even when the relevance list does", () => {
    const out = blendMemories([m("x"), m("x"), m("y")], [m("y"), m("x")]);
    expect(out.map((o) => o.memory.id)).toEqual(["x", "y"]);
  });
});

describe("scopes of a level", () => {
  it("routes each level to its scopes, cumulatively and local first", () => {
    expect(scopesForLevel("none", "internal")).toEqual([]);
    expect(scopesForLevel("local", "field")).toEqual(["memories", "documents", "interactions"]);
    expect(scopesForLevel("shared", "internal")).toEqual(["memories", "documents", "interactions", "team"]);
    expect(scopesForLevel("hq", "field")).toEqual(["memories", "documents", "interactions", "knowledge"]);
    // a field agent never reaches team scope, even if a level said shared
    expect(scopesForLevel("shared", "field")).not.toContain("team");
  });

  it("names the level explicit scopes amount to, and orders them", () => {
    expect(levelForScopes(["knowledge"])).toBe("hq");
    expect(levelForScopes(["team", "memories"])).toBe("shared");
    expect(levelForScopes(["interactions"])).toBe("local");
    expect(normalizeScopes(["knowledge", "memories", "knowledge"])).toEqual(["memories", "knowledge"]);
  });
});

describe("scopeWeights", () => {
  it("scales a scope by the square root of how well its best item answers, against the best scope's", () => {
    const w = scopeWeights(["memories", "interactions"], [0.2, 0.8]);
    expect(w.interactions).toBe(1);
    expect(w.memories).toBeCloseTo(0.5);
    // a memory that shares one common word with the question no longer outranks the turn that holds its rare words
    const fused = fuseResults(
      { memories: [hit("memories", "m1", 0.87)], interactions: [hit("interactions", "i1", 0.75)] },
      { limit: 2, scopeWeights: w },
    );
    expect(fused.map((f) => f.id)).toEqual(["i1", "m1"]);
  });
  it("leaves scopes that answer alike, a single scope, and scopes that answer nothing as they are", () => {
    expect(scopeWeights(["memories", "knowledge"], [0.6, 0.6])).toEqual({ memories: 1, knowledge: 1 });
    expect(scopeWeights(["interactions"], [0.3])).toEqual({ interactions: 1 });
    expect(scopeWeights(["memories", "documents"], [0, 0])).toEqual({});
  });
});
