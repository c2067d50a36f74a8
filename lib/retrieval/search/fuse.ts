import { RETRIEVAL_SCOPES, type RetrievalScope } from "./scopes";

/** One search hit of one scope, scored 0–1 by that scope's search. */
export interface Candidate {
  source: RetrievalScope;
  id: string;
  title: string;
  content: string;
  /** 0–1: the scope's weighted score of BM25 (relative to the best of the query) and cosine similarity */
  score: number;
  createdAt: Date | string;
  meta?: Record<string, unknown>;
}

export type FusedItem = Candidate;

export interface FuseOptions {
  limit: number;
  /** per-scope multipliers; 1 when left out */
  scopeWeights?: Partial<Record<RetrievalScope, number>>;
}

/**
 * Merges the per-scope result lists into one ranking by their 0–1 scores. Ties go to the more local
 * scope (local first), then to the newer item. Duplicates (the same source and id twice)
 * keep their best score.
 */
export function fuseResults(lists: Partial<Record<RetrievalScope, Candidate[]>>, opts: FuseOptions): FusedItem[] {
  const byKey = new Map<string, FusedItem>();
  for (const scope of RETRIEVAL_SCOPES) {
    const weight = opts.scopeWeights?.[scope] ?? 1;
    for (const c of lists[scope] ?? []) {
      const score = Math.max(0, Math.min(1, c.score * weight));
      const key = `${c.source}:${c.id}`;
      const seen = byKey.get(key);
      if (!seen || seen.score < score) byKey.set(key, { ...c, score });
    }
  }
  const order = (s: RetrievalScope) => RETRIEVAL_SCOPES.indexOf(s);
  const time = (d: Date | string) => new Date(d).getTime() || 0;
  return [...byKey.values()]
    .sort((a, b) => b.score - a.score || order(a.source) - order(b.source) || time(b.createdAt) - time(a.createdAt) || (a.id < b.id ? -1 : 1))
    .slice(0, Math.max(0, opts.limit));
}

/**
 * Each scope's multiplier in the fused ranking: the square root of how well its best item answers
 * the message against the best scope's (relevance.ts `judgeScope`). Every scope scores its items
 * against its own best, so without it memories that share one common word with a question ("new",
 * "after") would rank beside conversation turns that hold its rare words. A single scope, or scopes
 * that answer equally well, keep their scores.
 */
export function scopeWeights(scopes: readonly RetrievalScope[], strengths: number[]): Partial<Record<RetrievalScope, number>> {
  const best = Math.max(0, ...strengths);
  if (best <= 0) return {};
  return Object.fromEntries(scopes.map((scope, i) => [scope, Math.sqrt(strengths[i]! / best)]));
}
