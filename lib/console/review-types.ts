/** The memory manager's API shapes as the browser receives them: derived from the endpoints' contracts. */
import type { z } from "zod";
import type {
  bulkReviewResultView,
  contactListItemView,
  contactStageView,
  contactView,
  factView,
  flagView,
  managerPassReportView,
  suggestionView,
} from "@/lib/review/contracts";
import { type contactSentiment, suggestionStatus } from "@/lib/review/schemas";

export type ContactStage = z.infer<typeof contactStageView>;
export type Sentiment = z.infer<typeof contactSentiment>;
/** a contact; listings add fact and pending-suggestion counts */
export type Contact = z.input<typeof contactView> & Partial<Pick<z.input<typeof contactListItemView>, "factCount" | "pendingCount">>;
export type Fact = z.input<typeof factView>;
export type SuggestionFlag = z.input<typeof flagView>;
export type FlagCode = SuggestionFlag["code"];
export const SUGGESTION_STATUSES = suggestionStatus.options;
export type SuggestionStatus = z.infer<typeof suggestionStatus>;
export type Suggestion = z.input<typeof suggestionView>;
export type ManagerPassReport = z.input<typeof managerPassReportView>;
export type BulkReviewResult = z.input<typeof bulkReviewResultView>;
