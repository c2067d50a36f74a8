import "server-only";
import { tryEmbed } from "@/lib/embeddings";
import { combinedSimilarity, wordOverlap } from "./rules";

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * How alike `text` is to each candidate (the surprise filter's measure: embedder cosine and word
 * overlap). Embeds outside any transaction; when the provider is down, word overlap alone decides.
 */
export async function similarities(text: string, candidates: string[]): Promise<number[]> {
  if (!candidates.length) return [];
  const vectors = await tryEmbed([text, ...candidates]);
  return candidates.map((c, i) => {
    const overlap = wordOverlap(text, c);
    return vectors ? combinedSimilarity(cosine(vectors[0]!, vectors[i + 1]!), overlap) : overlap;
  });
}
