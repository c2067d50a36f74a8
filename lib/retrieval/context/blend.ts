/** Why a memory made it into the assembled context. */
export type BlendReason = "relevance" | "recency";

export interface BlendOptions {
  /** how many of the most relevant memories (3) */
  relevance: number;
  /** how many of the most recent (2) */
  recency: number;
}

export const SEED_BLEND: BlendOptions = { relevance: 3, recency: 2 };

/**
 * The memory blend: the top `relevance` memories by similarity to the topic, then the most recent
 * ones not already chosen until `relevance + recency` are picked (deduplicated by id). With fewer
 * relevant memories than asked, recency fills the rest; with no relevance ranking at all
 * (embeddings unavailable) the result is pure recency.
 */
export function blendMemories<T extends { id: string }>(
  relevant: readonly T[],
  recent: readonly T[],
  opts: BlendOptions = SEED_BLEND,
): { memory: T; reason: BlendReason }[] {
  const total = opts.relevance + opts.recency;
  const chosen: { memory: T; reason: BlendReason }[] = [];
  const ids = new Set<string>();
  for (const m of relevant) {
    if (chosen.length >= opts.relevance) break;
    if (ids.has(m.id)) continue;
    ids.add(m.id);
    chosen.push({ memory: m, reason: "relevance" });
  }
  for (const m of recent) {
    if (chosen.length >= total) break;
    if (ids.has(m.id)) continue;
    ids.add(m.id);
    chosen.push({ memory: m, reason: "recency" });
  }
  return chosen;
}
