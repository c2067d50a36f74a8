/**
 * What the agent-memory endpoints answer (documents, memories, interactions, re-embedding), as the
 * browser receives them: derived from the endpoints' contracts.
 */
import type { z } from "zod";
import type { dailyNoteSummaryView, documentConflictDetails, documentView } from "@/lib/documents/contracts";
import type { DocumentType } from "@/lib/documents/schemas";
import type { backfillReportView, backfillStatusView } from "@/lib/embeddings/contracts";
import type { conversationView, decisionContextView, interactionView, memoryView, outcomeView } from "@/lib/memories/contracts";
import type { listMemoriesQuery } from "@/lib/memories/schemas";

export type { DocumentType };
export { CATEGORIES_BY_TIER, MEMORY_STATUSES, MEMORY_TIERS, type MemoryStatus, type MemoryTier } from "@/lib/memories/rules";

export type AgentDocument = z.input<typeof documentView>;
export type DocumentConflictDetails = z.input<typeof documentConflictDetails>;
export type DailyNoteSummary = z.input<typeof dailyNoteSummaryView>;
export type DecisionContext = z.input<typeof decisionContextView>;
export type Outcome = z.input<typeof outcomeView>;
export type Memory = z.input<typeof memoryView>;
/** the list's filters as the console sets them (`status`: active by default, or all) */
export type MemoryFilters = Partial<Record<keyof z.input<typeof listMemoriesQuery>, string | number>>;
export type Interaction = z.input<typeof interactionView>;
export type Conversation = z.input<typeof conversationView>;
export type BackfillStatus = z.input<typeof backfillStatusView>;
export type BackfillReport = z.input<typeof backfillReportView>;
