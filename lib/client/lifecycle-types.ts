// Shapes of the lifecycle endpoints as the console receives them (JSON: dates are strings).
import type { KnowledgeCategory } from "./knowledge-types";

export const ESCALATION_SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type EscalationSeverity = (typeof ESCALATION_SEVERITIES)[number];

export interface Escalation {
  id: string;
  agentId: string;
  agentName: string | null;
  clientId: string | null;
  question: string;
  severity: EscalationSeverity;
  context: string;
  status: "open" | "resolved";
  knownFixId: string | null;
  resolution: string | null;
  knowledgeEntryId: string | null;
  raisedByName: string;
  resolvedByName: string | null;
  resolvedAt: string | null;
  createdAt: string;
}

export interface EscalationList {
  escalations: Escalation[];
  counts: { open: number; resolved: number; answeredByKnownFix: number };
}

export interface ResolveEscalationInput {
  id: string;
  resolution: string;
  knowledge?: { title: string; content: string; category: KnowledgeCategory; tags?: string[] };
}

export interface AgentReport {
  id: string | null;
  agentId: string;
  agentName: string;
  date: string;
  stored: boolean;
  generatedAt: string;
  learned: { total: number; core: number; working: number; learning: number };
  decisions: {
    made: { id: string; title: string }[];
    outcomesRecorded: { id: string; title: string; decisionId: string | null; success: boolean | null }[];
    awaitingOutcomes: { id: string; title: string; createdAt: string; ageDays: number }[];
  };
  retrieval: { calls: number; byLevel: Record<string, number>; emptyResults: number };
  escalations: { raised: { id: string; question: string; severity: string; status: string }[]; resolved: number };
  suggestions: { proposed: number; approved: number; rejected: number };
  markdown: string;
}

export interface OutcomesOverview {
  awaiting: { id: string; agentId: string; agentName: string; title: string; tags: string[]; createdAt: string; ageDays: number }[];
  rates: { agentId: string; agentName: string; category: string | null; decisions: number; scored: number; successes: number; successRate: number | null }[];
  recent: { id: string; agentId: string; agentName: string; title: string; outcomeId: string | null; success: boolean; result: string; scoredAt: string }[];
}
