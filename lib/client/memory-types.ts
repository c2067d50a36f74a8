/**
 * What the agent-memory endpoints answer (documents, memories, interactions, re-embedding), as the
 * browser sees them. Mirrors lib/documents/queries.ts, lib/memories/queries.ts and
 * lib/memories/interaction-queries.ts; keep them in step.
 */

export type DocumentType = "soul" | "working" | "daily";

export interface AgentDocument {
  type: DocumentType;
  date?: string | null;
  content: string;
  /** 0: never written */
  version: number;
  updatedAt: string | null;
  updatedByName: string | null;
}

export interface DocumentConflictDetails {
  expectedVersion: number;
  current: AgentDocument;
}

export interface DailyNoteSummary {
  date: string;
  version: number;
  chars: number;
  updatedAt: string;
}

export const MEMORY_TIERS = ["core", "working", "learning"] as const;
export type MemoryTier = (typeof MEMORY_TIERS)[number];
export const CATEGORIES_BY_TIER: Record<MemoryTier, readonly string[]> = {
  core: ["identity", "client", "procedure", "preference", "principle", "team"],
  working: ["project", "thread", "commitment"],
  learning: ["decision", "correction", "insight", "outcome", "pattern", "strategy", "lesson"],
};
export const MEMORY_STATUSES = ["active", "resolved", "archived"] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

export interface DecisionContext {
  reasoning: string;
  alternatives?: string[];
  assumptions?: string[];
  killCriteria?: string;
}

export interface Outcome {
  result: string;
  success: boolean;
  notes?: string;
  scoredAt: string;
  outcomeId?: string;
  decisionId?: string;
}

export interface Memory {
  id: string;
  agentId: string;
  scope: "agent" | "team";
  tier: MemoryTier;
  category: string;
  title: string;
  content: string;
  source: string;
  confidence: number;
  surpriseScore: number | null;
  tags: string[];
  relatedIds: string[];
  decisionContext: DecisionContext | null;
  outcome: Outcome | null;
  sourceTraceId: string | null;
  status: MemoryStatus;
  resolvedAt: string | null;
  archivedAt: string | null;
  archiveReason: string | null;
  expiresAt: string | null;
  accessedCount: number;
  lastAccessedAt: string | null;
  occurredAt: string;
  version: number;
  createdByName: string;
  embedded: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface MemoryFilters {
  tier?: string;
  category?: string;
  /** active (default), resolved, archived or all */
  status?: string;
  scope?: string;
  q?: string;
  limit?: number;
  offset?: number;
}

export interface Interaction {
  id: string;
  clientId: string | null;
  agentId: string;
  contactId: string | null;
  channel: string;
  direction: "inbound" | "outbound";
  speaker: string;
  content: string;
  occurredAt: string;
  embedded: boolean;
  createdAt: string;
}

export interface BackfillStatus {
  provider: string;
  model: string;
  remaining: number;
  targets: { table: string; remaining: number }[];
}

export interface BackfillReport {
  embedded: number;
  remaining: number;
  targets: { table: string; remaining: number }[];
  error?: string;
}
