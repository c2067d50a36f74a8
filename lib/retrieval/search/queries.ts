import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { DocumentRow } from "@/lib/documents/queries";
import type { Attachment } from "@/lib/memories/attachments";
import type { knowledgeSearchHitView } from "@/lib/knowledge/contracts";
import type { interactionView, memoryView } from "@/lib/memories/contracts";

type Memory = z.output<typeof memoryView>;
type Interaction = z.output<typeof interactionView>;
type KnowledgeSearchHit = z.output<typeof knowledgeSearchHitView>;

// SQL of retrieval's searches. Every query runs as the agent being served (its claims, under RLS);
// tenancy is repeated in the WHERE clauses.


/**
 * Weight of the lexical (BM25) score against cosine similarity in the searches of memories,
 * documents and the knowledge base: score = w · BM25 / best BM25 + (1 − w) · max(cosine, 0), over
 * the union of both candidate lists. Weighted scores, not reciprocal ranks: with a weak vector list
 * (averaged word vectors) RRF pulls good lexical hits down.
 */
export const SEARCH_LEXICAL_WEIGHT = 0.6;
/**
 * Up to this many rows that pass the filters are ranked by exact distance; beyond it, HNSW. In PGlite
 * an exact ranking costs 15–30 µs a row (each vector is read back from TOAST), an HNSW walk 5–15 ms
 * even when the filter passes only a few percent of the index's rows. An agent's private memories
 * (at most 200 active) stay on the exact path.
 */
export const EXACT_SCAN_MAX = 300;

// ── hybrid search ───────────────────────────────────────────────────────────────────────────────

/**
 * How a search ranked a row: the signals the knowledge search publishes (every search of memories,
 * documents and the knowledge base computes them alike), and the share of the query's IDF mass the
 * row matches (0–1).
 */
type Ranked = Pick<KnowledgeSearchHit, "score" | "lexicalScore" | "similarity" | "fullTextRank" | "semanticRank"> & { coverage: number };

const RANKED = `score, lexical_score as "lexicalScore", coverage, full_text_rank::int as "fullTextRank",
  semantic_rank::int as "semanticRank", similarity`;

export type MemoryHit = Ranked &
  Pick<Memory, "id" | "agentId" | "scope" | "tier" | "category" | "title" | "content" | "tags" | "confidence" | "createdByName" | "occurredAt" | "createdAt">;

interface SearchParams {
  /** the message or query as written: Postgres's english configuration stems it and drops stopwords */
  text: string;
  /** pgvector literal, or null: full text only */
  embedding: string | null;
  /** the model that made `embedding`: only vectors of this model are compared */
  model: string | null;
  limit: number;
  minSimilarity: number;
}

/** Memories: one agent's private ones, or (ownerId null) the team's shared ones. */
export function searchMemories(tx: Queryable, p: SearchParams & { scope: "agent" | "team"; ownerId: string | null; asOf?: Date }) {
  return tx.query<MemoryHit>(
    `select id, agent_id as "agentId", scope, tier, category, title, content, tags, confidence,
            created_by_name as "createdByName", occurred_at as "occurredAt", created_at as "createdAt", ${RANKED}
       from search_memories($1, $2::vector, $3, $4, $5, $6::uuid, $7, $8, $9, coalesce($10::timestamptz, now()))`,
    [
      p.text, p.embedding, p.embedding ? p.model : null, p.limit, p.scope, p.ownerId, SEARCH_LEXICAL_WEIGHT, p.minSimilarity,
      EXACT_SCAN_MAX, p.asOf ?? null,
    ],
  );
}

/** A written document, with the owner and id the document view leaves out. */
export type DocumentHit = Ranked &
  Pick<DocumentRow, "type" | "date" | "content" | "updatedAt"> & { id: string; agentId: string; createdAt: DocumentRow["updatedAt"] };

export function searchDocuments(tx: Queryable, p: SearchParams & { ownerId: string }) {
  return tx.query<DocumentHit>(
    `select id, agent_id as "agentId", type, doc_date::text as date, content, updated_at as "updatedAt",
            created_at as "createdAt", ${RANKED}
       from search_documents($1, $2::vector, $3, $4, $5::uuid, $6, $7)`,
    [p.text, p.embedding, p.embedding ? p.model : null, p.limit, p.ownerId, SEARCH_LEXICAL_WEIGHT, p.minSimilarity],
  );
}

/** A turn of a conversation, with the signals its score is made of (shown in the item's `meta`). */
export type InteractionHit = Pick<
  Interaction,
  "id" | "agentId" | "clientId" | "contactId" | "channel" | "direction" | "speaker" | "content" | "occurredAt" | "createdAt"
> & {
  /** 0–1: the weighted sum of the signals, divided by the sum of the positive weights */
  score: number;
  /** BM25F relative to the best of the message (0–1) */
  lexicalScore: number;
  /** share of the message's IDF mass the row matches (0–1) */
  coverage: number;
  /** cosine similarity of the turn's own vector to the message's, null without a vector of the message's model */
  similarity: number | null;
  /** cosine similarity of the turn with its neighbours (its own vector counted twice) */
  contextSimilarity: number | null;
  /** share of the message's IDF mass its conversation's matching turns hold together (0–1) */
  conversationCoverage: number;
  /** the turn's photos, files and voice notes (their captions are searched with it) */
  attachments: Attachment[];
};

/**
 * Conversations of one agent (agentId) or of one client (clientId): each turn scored as part of its
 * conversation — BM25F over the turn with its neighbouring turns, its and its neighbours' vectors of
 * `model`, how much of the message its conversation covers, whether its speaker is named, how much
 * it says, whether it is only a question (weights and reasons in the conversation-ranking
 * migration). `message` is the raw message: Postgres's english configuration stems it and drops
 * its stopwords.
 */
export function searchInteractions(
  tx: Queryable,
  p: { message: string; embedding: string | null; model: string | null; limit: number; agentId: string | null; clientId: string | null },
) {
  return tx.query<InteractionHit>(
    `select id, agent_id as "agentId", client_id as "clientId", contact_id as "contactId", channel, direction, speaker,
            content, occurred_at as "occurredAt", created_at as "createdAt", score, lexical_score as "lexicalScore",
            coverage, similarity, context_similarity as "contextSimilarity", conversation_coverage as "conversationCoverage",
            attachments
       from search_interactions($1, $2::vector, $3, $4, $5::uuid, $6::uuid, $7)`,
    [p.message, p.embedding, p.model, p.limit, p.agentId, p.clientId, EXACT_SCAN_MAX],
  );
}

/**
 * One step of rebuilding the BM25 statistics of one agent's or one client's conversations (a job,
 * as the system): the next `lexemes` words after `after` (the last step: every word left, and the
 * scope's size). The word to continue after, or null when the scope is done.
 */
export async function refreshInteractionStatsStep(tx: Queryable, p: { kind: "agent" | "client"; scopeId: string; after: string; lexemes: number }) {
  const [row] = await tx.query<{ next: string | null }>("select mhq.refresh_interaction_stats_step($1, $2, $3, $4) as next", [
    p.kind, p.scopeId, p.after, p.lexemes,
  ]);
  return row?.next ?? null;
}

/** Folds up to `limit` logged deltas of the memory and knowledge statistics in (a job, as the system); how many. */
export async function foldSearchStats(tx: Queryable, p: { limit: number }) {
  const [row] = await tx.query<{ folded: number }>("select mhq.fold_search_stats($1) as folded", [p.limit]);
  return Number(row?.folded ?? 0);
}

/** The tables whose visibility map a VACUUM sets after the statistics jobs (embedded database). */
export const POSTINGS_TABLES = {
  // the statistics too: a rebuild deletes a scope's rows and a fold empties the log, and their
  // dead rows would otherwise be stepped over by every search's lookups
  interactions: ["interaction_postings", "interaction_search_docs", "interaction_term_stats", "interaction_corpus_stats"],
  "memories and knowledge": ["knowledge_postings", "memory_postings", "search_stats_log", "search_term_stats"],
} as const;

/** VACUUM of one postings or statistics table (outside any transaction): sets its visibility map. */
export async function vacuumTable(db: Queryable, table: (typeof POSTINGS_TABLES)[keyof typeof POSTINGS_TABLES][number]) {
  await db.exec(`vacuum ${table}`);
}

export type KnowledgeHit = Ranked &
  Pick<KnowledgeSearchHit, "id" | "title" | "content" | "category" | "tags" | "version" | "createdAt" | "updatedAt">;

/**
 * The HQ knowledge base, published entries: search_knowledge, the one knowledge search curators
 * (GET /knowledge?q=) use too — BM25 over postings and HNSW vectors by weighted scores.
 */
export function searchKnowledge(tx: Queryable, p: SearchParams) {
  return tx.query<KnowledgeHit>(
    `select id, title, content, category, tags, version, created_at as "createdAt", updated_at as "updatedAt", ${RANKED}
       from search_knowledge($1, $2::vector, $3, $4, null, null, false, $5, $6)`,
    [p.text, p.embedding, p.embedding ? p.model : null, p.limit, SEARCH_LEXICAL_WEIGHT, p.minSimilarity],
  );
}
