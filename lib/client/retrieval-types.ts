/**
 * The shapes of the retrieval endpoints as the browser sees them (dates as ISO strings). Mirrors
 * lib/retrieval/*; keep them in step when a response changes.
 */

export const RETRIEVAL_SCOPES = ["memories", "documents", "interactions", "team", "knowledge"] as const;
export type RetrievalScope = (typeof RETRIEVAL_SCOPES)[number];
export type RetrievalLevel = "none" | "local" | "shared" | "hq";

export interface Trigger {
  kind: string;
  match: string;
}

export interface RetrievedItem {
  source: RetrievalScope;
  id: string;
  title: string;
  content: string;
  /** 0–1 */
  score: number;
  createdAt: string;
  meta?: Record<string, unknown>;
}

export interface RetrieveResult {
  agentId: string;
  level: RetrievalLevel;
  triggers: Trigger[];
  scopes: RetrievalScope[];
  items: RetrievedItem[];
  context: string;
  tookMs: number;
}

export interface ContextSection {
  key: string;
  title: string;
  content: string;
}

export interface AssembledContext {
  agentId: string;
  topic: string | null;
  sections: ContextSection[];
  text: string;
  memories: { id: string; tier: string; category: string; title: string; reason: "relevance" | "recency" }[];
  memorySelection: "relevance+recency" | "recency";
  briefing: { generatedAt: string; cached: boolean };
  tookMs: number;
}

export interface LevelCounts {
  none: number;
  local: number;
  shared: number;
  hq: number;
}

export interface RetrievalStats {
  days: number;
  since: string;
  perDay: (LevelCounts & { day: string; total: number })[];
  totals: {
    retrievals: number;
    contextAssemblies: number;
    playgroundRuns: number;
    emptyRetrievals: number;
    p50Ms: number | null;
    p95Ms: number | null;
    avgItems: number | null;
  };
  knowledge: {
    mostRetrieved: { id: string; title: string; category: string; accessedCount: number; lastAccessedAt: string | null }[];
    neverRetrieved: { id: string; title: string; category: string; createdAt: string }[];
    neverRetrievedCount: number;
  };
  pendingReviews: { suggestions: number; playbookUpdates: number };
  openItems: {
    decisionsAwaitingOutcome: { id: string; title: string; agentId?: string; agentName: string; scope: string; createdAt: string }[];
    decisionsAwaitingOutcomeCount: number;
    pendingSuggestions: { id: string; key: string; value: string; confidence: number; contactId?: string; contactName: string | null; proposedByName: string; createdAt: string }[];
  };
}
