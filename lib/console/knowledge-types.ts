/** The knowledge base's API shapes as the browser receives them: derived from the endpoints' contracts. */
import type { z } from "zod";
import type {
  knowledgeEntryView,
  knowledgeImportReportView,
  knowledgeImportResultView,
  knowledgeListView,
  knowledgeSearchHitView,
  knowledgeVersionView,
} from "@/lib/knowledge/contracts";
import type { createKnowledgeBody, knowledgeStatus } from "@/lib/knowledge/schemas";

export { KNOWLEDGE_CATEGORIES, type KnowledgeCategory } from "@/lib/knowledge/schemas";
export type KnowledgeStatus = z.infer<typeof knowledgeStatus>;

/** an entry; search results carry their scores too */
export type KnowledgeEntry = z.input<typeof knowledgeEntryView> & Partial<Pick<z.input<typeof knowledgeSearchHitView>, "score" | "fullTextRank" | "semanticRank">>;
export type KnowledgeVersion = z.input<typeof knowledgeVersionView>;
export type KnowledgeListResponse = z.input<typeof knowledgeListView>;
export type KnowledgeImportResult = z.input<typeof knowledgeImportResultView>;
export type KnowledgeImportReport = z.input<typeof knowledgeImportReportView>;
/** what the editor submits: a create body with its tags resolved */
export type KnowledgeDraft = Required<z.output<typeof createKnowledgeBody>>;
