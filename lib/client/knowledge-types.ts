/** The knowledge base's API shapes as the browser receives them (times are ISO strings). */

export const KNOWLEDGE_CATEGORIES = ["procedure", "best-practice", "template", "skill-doc", "escalation", "tool-guide"] as const;
export type KnowledgeCategory = (typeof KNOWLEDGE_CATEGORIES)[number];
export type KnowledgeStatus = "published" | "archived";

export interface KnowledgeEntry {
  id: string;
  title: string;
  content: string;
  category: KnowledgeCategory;
  tags: string[];
  version: number;
  status: KnowledgeStatus;
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
  accessedCount: number;
  lastAccessedAt: string | null;
  embedded: boolean;
  /** search results only */
  score?: number;
  fullTextRank?: number | null;
  semanticRank?: number | null;
}

export interface KnowledgeVersion {
  version: number;
  title: string;
  content: string;
  category: KnowledgeCategory;
  tags: string[];
  status: KnowledgeStatus;
  editedBy: string;
  editedAt: string;
  replacedAt: string | null;
  current: boolean;
}

export type KnowledgeListResponse =
  | { mode: "list"; entries: KnowledgeEntry[]; total: number; limit: number; offset: number }
  | { mode: "search"; query: string; semantic: boolean; entries: KnowledgeEntry[] };

export interface KnowledgeImportResult {
  index: number;
  source: "entry" | "file";
  name?: string;
  title?: string;
  status: "created" | "ready" | "skipped" | "refused";
  reason?: string;
  id?: string;
}

export interface KnowledgeImportReport {
  dryRun: boolean;
  summary: { total: number; created: number; ready: number; skipped: number; refused: number };
  results: KnowledgeImportResult[];
}

export interface KnowledgeDraft {
  title: string;
  content: string;
  category: KnowledgeCategory;
  tags: string[];
}
