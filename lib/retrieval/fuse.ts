import { RETRIEVAL_SCOPES, type RetrievalScope } from "./scopes";

/** One search hit of one scope, scored by that scope's hybrid search (reciprocal rank fusion). */
export interface Candidate {
  source: RetrievalScope;
  id: string;
  title: string;
  content: string;
  /** the raw RRF score: Σ weight / (k + rank) over the full-text and semantic rankings */
  score: number;
  createdAt: Date | string;
  meta?: Record<string, unknown>;
}

export interface FusedItem extends Omit<Candidate, "score"> {
  /** 0–1: 1 is an item ranked first by both full text and vector similarity in its scope */
  score: number;
}

export interface FuseOptions {
  limit: number;
  /** the RRF constant the SQL functions used (50, as Supabase's hybrid search) */
  rrfK: number;
  /** the full-text and semantic weights the SQL functions used (1 and 1) */
  fullTextWeight?: number;
  semanticWeight?: number;
  /** per-scope multipliers; 1 when left out */
  scopeWeights?: Partial<Record<RetrievalScope, number>>;
}

/**
 * Merges the per-scope result lists into one ranking.
 *
 * Every scope is searched by the same kind of SQL function with the same RRF constant and weights,
 * so their scores are on one scale already: an item's score depends only on its ranks in its
 * scope's full-text and vector lists. Dividing by the best possible score (rank 1 in both lists)
 * normalises it to 0–1. Ties go to the more local scope (local first), then to the newer
 * item. Duplicates (the same source and id twice) keep their best score.
 */
export function fuseResults(lists: Partial<Record<RetrievalScope, Candidate[]>>, opts: FuseOptions): FusedItem[] {
  const best = ((opts.fullTextWeight ?? 1) + (opts.semanticWeight ?? 1)) / (opts.rrfK + 1);
  const byKey = new Map<string, FusedItem>();
  for (const scope of RETRIEVAL_SCOPES) {
    const weight = opts.scopeWeights?.[scope] ?? 1;
    for (const c of lists[scope] ?? []) {
      const score = best > 0 ? Math.min(1, (c.score / best) * weight) : 0;
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
