import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { DocumentRow } from "@/lib/documents/queries";
import type { ServerResponse } from "@/lib/http/contract";
import type { knowledgeSearchHitView } from "@/lib/knowledge/contracts";
import type { interactionView, memoryView } from "@/lib/memories/contracts";
import type { retrievalContracts } from "./contracts";
import type { VocabularyTerm } from "./trigger";

type Memory = z.output<typeof memoryView>;
type Interaction = z.output<typeof interactionView>;
type KnowledgeSearchHit = z.output<typeof knowledgeSearchHitView>;
type Briefing = ServerResponse<typeof retrievalContracts.briefing>;

// SQL of the retrieval domain. Every query runs as the agent being served (its claims, under RLS)
// or, for the dashboard, as the HQ user; tenancy is repeated in the WHERE clauses.

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

// ── trigger vocabulary ──────────────────────────────────────────────────────────────────────────

/** At most this many contact names join a vocabulary (most recently changed first). */
export const VOCABULARY_CONTACTS = 500;
/** At most this many people of the agent's own memory join its vocabulary (most recently met first). */
export const VOCABULARY_PEOPLE = 500;

/**
 * The names the smart trigger listens for, from the data. Internal agents: every other agent, every
 * client and its trigger terms, contacts, and missions in flight. Field agents: only their own
 * client's name, trigger terms and contacts — never an internal team name, never a mission. Both:
 * the people in the agent's own memory (agent_people: the speakers of its conversations and the
 * names its own memories mention), which RLS keeps to the agent's own rows.
 */
export function listVocabularyTerms(tx: Queryable, p: { agentId: string; kind: "internal" | "field"; clientId: string | null }) {
  const people = `(select ap.name, 'person', 9 from agent_people ap where ap.agent_id = $3 order by ap.id desc limit $4)`;
  if (p.kind === "field") {
    return tx.query<VocabularyTerm>(
      `select term, type from (
         select c.name as term, 'client' as type, 0 as ord from clients c where c.id = $1
         union all
         select unnest(c.trigger_terms), 'term', 1 from clients c where c.id = $1
         union all
         (select ct.name, 'contact', 2 from contacts ct
           where ct.client_id = $1 and ct.name is not null and not ct.opt_out
           order by ct.updated_at desc limit $2)
         union all
         ${people}
       ) v order by ord`,
      [p.clientId, VOCABULARY_CONTACTS, p.agentId, VOCABULARY_PEOPLE],
    );
  }
  return tx.query<VocabularyTerm>(
    `select term, type from (
       select a.name as term, 'agent' as type, 0 as ord from agents a where a.id <> $1 and a.disabled_at is null
       union all
       select c.name, 'client', 1 from clients c
       union all
       select unnest(c.trigger_terms), 'term', 2 from clients c
       union all
       select m.title, 'mission', 3 from missions m where m.status in ('planned', 'active', 'blocked')
       union all
       (select ct.name, 'contact', 4 from contacts ct
         where ct.name is not null and not ct.opt_out
         order by ct.updated_at desc limit $2)
       union all
       ${people}
     ) v order by ord`,
    [p.agentId, VOCABULARY_CONTACTS, p.agentId, VOCABULARY_PEOPLE],
  );
}

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
            coverage, similarity, context_similarity as "contextSimilarity", conversation_coverage as "conversationCoverage"
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

// access tracking (what actually gets used) lives in ./access-queries.ts

// ── retrieval log ───────────────────────────────────────────────────────────────────────────────

export interface RetrievalLogEntry {
  agentId: string;
  clientId: string | null;
  endpoint: "retrieve" | "context";
  callerType: "agent" | "hq";
  level: string | null;
  explicitScopes: boolean;
  scopes: string[];
  triggerKinds: string[];
  items: { source: string; id: string }[];
  tookMs: number;
  messageChars: number;
  /** "shared": the agent's own scopes found nothing and the team's shared memory was searched */
  fallback?: "shared" | null;
}

/** Without RETURNING: agents write the log but may not read it (RLS). */
export async function insertRetrievalLog(tx: Queryable, e: RetrievalLogEntry) {
  // one insert into retrieval_log, through a function that keeps its plan
  await tx.query(`select mhq.log_retrieval($1, $2, $3, $4, $5, $6, $7::text[], $8::text[], $9::text::jsonb, $10, $11, $12)`, [
    e.agentId, e.clientId, e.endpoint, e.callerType, e.level, e.explicitScopes, e.scopes, e.triggerKinds,
    JSON.stringify(e.items), e.tookMs, e.messageChars, e.fallback ?? null,
  ]);
}

// ── context assembly ────────────────────────────────────────────────────────────────────────────

export type RecentMemory = Pick<Memory, "id" | "tier" | "category" | "title" | "content" | "occurredAt" | "createdAt">;

/** The agent's newest live memories (the "top 2 by recency"), on memories_owner_idx. */
export function listRecentMemories(tx: Queryable, p: { agentId: string; limit: number; asOf?: Date }) {
  return tx.query<RecentMemory>(
    `select id, tier, category, title, content, occurred_at as "occurredAt", created_at as "createdAt"
       from memories
      where agent_id = $1 and scope = 'agent' and status in ('active', 'resolved')
        and (expires_at is null or expires_at > coalesce($3::timestamptz, now()))
      order by created_at desc, id
      limit $2`,
    [p.agentId, p.limit, p.asOf ?? null],
  );
}

// ── situational briefing ────────────────────────────────────────────────────────────────────────

interface Window {
  since: Date;
  now: Date;
  /** a field agent's client: only its rows; null for internal agents */
  clientId: string | null;
  limit: number;
}

/** Events of every agent in the window (field agents: their client's). */
export function listRecentEvents(tx: Queryable, p: Window) {
  return tx.query<Briefing["events"][number]>(
    `select e.id, e.occurred_at as "occurredAt", a.name as "agentName", e.kind, e.outcome, e.summary
       from event_log e left join agents a on a.id = e.agent_id
      where e.occurred_at > $1 and e.occurred_at <= $2 and ($3::uuid is null or e.client_id = $3)
      order by e.occurred_at desc, e.id
      limit $4`,
    [p.since, p.now, p.clientId, p.limit],
  );
}

/** Missions in flight (planned, active, blocked), on missions_status_idx. */
export function listOpenMissions(tx: Queryable, p: { clientId: string | null; limit: number }) {
  return tx.query<Briefing["missions"][number]>(
    `select id, title, status, summary, updated_at as "updatedAt"
       from missions
      where status in ('active', 'blocked', 'planned') and ($1::uuid is null or client_id = $1)
      order by case status when 'active' then 0 when 'blocked' then 1 else 2 end, updated_at desc
      limit $2`,
    [p.clientId, p.limit],
  );
}

/** Conversations in the window the agent did not take part in. */
export function listOthersInteractions(tx: Queryable, p: Window & { agentId: string }) {
  return tx.query<Briefing["interactions"][number]>(
    `select i.id, i.occurred_at as "occurredAt", a.name as "agentName", i.channel, i.direction, i.speaker,
            left(i.content, 400) as excerpt
       from interactions i left join agents a on a.id = i.agent_id
      where i.agent_id <> $4 and i.occurred_at > $1 and i.occurred_at <= $2 and ($3::uuid is null or i.client_id = $3)
      order by i.occurred_at desc, i.seq desc
      limit $5`,
    [p.since, p.now, p.clientId, p.agentId, p.limit],
  );
}

/** Memory suggestions awaiting review (count and the newest few). */
export async function pendingSuggestions(tx: Queryable, p: { clientId: string | null; limit: number }) {
  const rows = await tx.query<Briefing["proposals"]["suggestions"]["items"][number] & { total: number }>(
    `select s.id, s.key, s.value, s.confidence, c.name as "contactName", s.proposed_by_name as "proposedByName",
            s.created_at as "createdAt", count(*) over () as total
       from memory_suggestions s left join contacts c on c.id = s.contact_id
      where s.status = 'pending' and ($1::uuid is null or s.client_id = $1)
      order by s.created_at desc, s.id
      limit $2`,
    [p.clientId, p.limit],
  );
  return { count: rows[0] ? Number(rows[0].total) : 0, items: rows.map(({ total: _t, ...r }) => r) };
}

/** Playbook updates awaiting review (count and the newest few). */
export async function proposedPlaybookUpdates(tx: Queryable, p: { clientId: string | null; limit: number }) {
  const rows = await tx.query<Briefing["proposals"]["playbookUpdates"]["items"][number] & { total: number }>(
    `select p.id, p.area, p.title, a.name as "agentName", p.created_at as "createdAt", count(*) over () as total
       from playbook_updates p left join agents a on a.id = p.agent_id
      where p.status = 'proposed' and ($1::uuid is null or p.client_id = $1)
      order by p.created_at desc, p.id
      limit $2`,
    [p.clientId, p.limit],
  );
  return { count: rows[0] ? Number(rows[0].total) : 0, items: rows.map(({ total: _t, ...r }) => r) };
}
