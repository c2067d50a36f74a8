/**
 * The memory manager's API shapes as the browser sees them (dates as ISO strings). Mirrors
 * lib/review/queries.ts and lib/review/suggestions-service.ts; keep them in step.
 */

export type ContactStage = "new" | "engaged" | "qualified" | "booked" | "customer" | "lost" | "opted_out";
export type Sentiment = "positive" | "neutral" | "negative";

export interface Contact {
  id: string;
  clientId: string | null;
  clientName: string | null;
  name: string | null;
  phone: string | null;
  email: string | null;
  summary: string;
  stage: ContactStage;
  sentiment: Sentiment | null;
  optOut: boolean;
  optedOutAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** in listings */
  factCount?: number;
  pendingCount?: number;
}

export interface Fact {
  id: string;
  contactId: string;
  key: string;
  value: string;
  confidence: number;
  status: "active" | "superseded";
  supersededBy: string | null;
  supersededAt: string | null;
  sourceSuggestionId: string | null;
  writtenByType: string;
  writtenByName: string;
  createdAt: string;
}

export type FlagCode =
  | "pii"
  | "locked_constant"
  | "low_confidence"
  | "below_auto_approve"
  | "not_allowlisted"
  | "transcript_like"
  | "replaces_fact"
  | "loses_to_fact"
  | "same_as_fact";

export interface SuggestionFlag {
  code: FlagCode | string;
  message: string;
}

export const SUGGESTION_STATUSES = ["pending", "approved", "rejected", "superseded"] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

export interface Suggestion {
  id: string;
  contactId: string;
  clientId: string | null;
  key: string;
  value: string;
  confidence: number;
  interactionId: string | null;
  status: SuggestionStatus;
  reason: string | null;
  flags: SuggestionFlag[];
  factId: string | null;
  proposedByType: string;
  proposedById: string | null;
  proposedByName: string;
  reviewedByType: string | null;
  reviewedByName: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
  contact: { id: string; name: string | null; optOut: boolean };
  clientName: string | null;
  currentFact: { id: string; value: string; confidence: number } | null;
  interaction: { id: string; channel: string | null; excerpt: string; occurredAt: string | null } | null;
  /** pending ones: the validator's verdict as of now */
  verdict: "approve" | "review" | "refuse" | null;
}

export interface ManagerPassReport {
  processed: number;
  approved: number;
  superseded: number;
  rejected: number;
  left: number;
  threshold: number;
}

export interface BulkReviewResult {
  results: { id: string; ok: boolean; status?: string; error?: { code: string; message: string } }[];
  succeeded: number;
  failed: number;
}
