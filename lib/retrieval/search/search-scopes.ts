import "server-only";
import type { Queryable } from "@/lib/db";
import { getEmbeddingProvider, toVectorLiteral } from "@/lib/embeddings";
import { searchableText } from "@/lib/memories/attachments";
import type { AgentView } from "../agent-view";
import { truncate } from "../context/format";
import { longDay } from "../context/relative-dates";
import { conversationQueryVector, rankTurns } from "./conversation-ranker";
import { fuseResults, scopeWeights, type Candidate, type FusedItem } from "./fuse";
import * as q from "./queries";
import { judgeScope, RELATED_TURN_SIMILARITY, STRONG_SIMILARITY } from "./relevance";
import { hasTimeExpression, isWhenQuestion } from "./time-signals";
import type { RetrievalScope } from "./scopes";

/** longest text of one item in the API answer (documents and knowledge entries can be long) */
export const ITEM_CONTENT_CHARS = 2000;
/**
 * A candidate found only by vector similarity must be at least this similar (cosine) to the message.
 * Nearest-neighbour search always returns something; below this it is noise. Averaged word vectors
 * (the local model) share a common direction, so unrelated texts still score 0.3–0.6 there; OpenAI's
 * models score unrelated texts ≈ 0.1.
 */
export const MIN_SIMILARITY = 0.12;

/**
 * How many candidate turns the conversation search hands the ranker (conversation-ranker.ts) for a
 * top 10: the ranker reorders them. With the answer-kind signal, 30 measured best on the development
 * conversations (recall@10 left out: 20 candidates 0.832, 30 0.837, 40 0.834, offline); more lets in
 * turns that push adversarial and temporal evidence out.
 */
export const RANKER_POOL = 30;

export interface SearchRequest {
  message: string;
  /** the message's vector of the provider's model, or null: words only */
  vector: number[] | null;
  limit: number;
}

/** The message's vectors as pgvector literals: as embedded, and as conversations are searched with it. */
interface Embedded {
  /** memories, documents and knowledge */
  embedding: string | null;
  /** conversation turns: mapped by the conversation ranker's question adapter */
  conversation: string | null;
}

/** Searches each scope (each already limited to what RLS lets the agent read) and fuses them. */
export async function searchScopes(tx: Queryable, view: AgentView, scopes: readonly RetrievalScope[], p: SearchRequest): Promise<FusedItem[]> {
  // One transaction, one connection: the scopes' statements are sent together (pipelined) and
  // answered in order, one round trip instead of one per scope.
  const model = getEmbeddingProvider().model;
  const embedded: Embedded = {
    embedding: p.vector ? toVectorLiteral(p.vector) : null,
    conversation: p.vector && scopes.includes("interactions") ? toVectorLiteral(conversationQueryVector(p.vector, model)) : null,
  };
  const found = await Promise.all(scopes.map((scope) => searchScope(tx, view, scope, p, embedded)));
  const lists: Partial<Record<RetrievalScope, Candidate[]>> = Object.fromEntries(scopes.map((scope, i) => [scope, found[i]!.items]));
  return fuseResults(lists, { limit: p.limit, scopeWeights: scopeWeights(scopes, found.map((f) => f.strength)) });
}

/** One scope's hits above the relevance floor, as candidates of the fused ranking, and how well its best answers. */
async function searchScope(
  tx: Queryable,
  view: AgentView,
  scope: RetrievalScope,
  p: SearchRequest,
  embedded: Embedded,
): Promise<{ items: Candidate[]; strength: number }> {
  const { agent } = view;
  const provider = getEmbeddingProvider();
  const strong = provider.name === "local" ? STRONG_SIMILARITY.local : STRONG_SIMILARITY.other;
  // memories, documents and knowledge are searched with the message as written (BM25 over
  // Postgres's english lexemes) and vectors of the provider's model only
  const search = { text: p.message, embedding: embedded.embedding, model: provider.model, limit: p.limit, minSimilarity: MIN_SIMILARITY };
  /** the relevance floor (relevance.ts) over one scope's hits */
  const floor = <T extends { similarity: number | null }>(hits: T[], text: (h: T) => string) =>
    judgeScope(hits, (h) => ({ text: text(h), similarity: h.similarity }), p.message, strong);
  const scoped = <T,>(judged: { kept: T[]; strength: number }, item: (h: T) => Candidate) => ({ items: judged.kept.map(item), strength: judged.strength });
  switch (scope) {
    case "memories":
    case "team": {
      const hits = await q.searchMemories(tx, {
        ...search,
        scope: scope === "team" ? "team" : "agent",
        ownerId: scope === "team" ? null : agent.agentId,
      });
      return scoped(floor(hits, (m) => `${m.title}\n${m.content}`), (m) => ({
        source: scope,
        id: m.id,
        title: m.title,
        content: truncate(m.content, ITEM_CONTENT_CHARS),
        score: m.score,
        createdAt: m.occurredAt,
        meta: { tier: m.tier, category: m.category, tags: m.tags, confidence: m.confidence, author: m.createdByName, ...ranks(m) },
      }));
    }
    case "documents": {
      const hits = await q.searchDocuments(tx, { ...search, ownerId: agent.agentId });
      return scoped(floor(hits, (d) => d.content), (d) => ({
        source: "documents",
        id: d.id,
        title: d.type === "soul" ? "SOUL" : d.type === "working" ? "Scratchpad (WORKING)" : `Daily note ${d.date}`,
        content: truncate(d.content, ITEM_CONTENT_CHARS),
        score: d.score,
        createdAt: d.updatedAt,
        meta: { type: d.type, date: d.date, ...ranks(d) },
      }));
    }
    case "interactions": {
      // a field agent recalls its client's conversations; an internal agent its own
      const candidates = await q.searchInteractions(tx, {
        message: p.message,
        embedding: embedded.conversation,
        model: embedded.conversation ? provider.model : null,
        limit: Math.max(RANKER_POOL, 2 * p.limit),
        agentId: agent.kind === "field" ? null : agent.agentId,
        clientId: agent.kind === "field" ? agent.clientId : null,
      });
      // the ranker's order, on the search's score scale: the i-th turn gets the i-th best score of the
      // candidates, so a conversation turn weighs against memories and knowledge as it always did
      // (the fusion of scopes compares scores, and the ranker's own scores run lower)
      const scale = candidates.map((c) => c.score).sort((a, b) => b - a);
      const hits = rankTurns(candidates, p.message)
        .slice(0, p.limit)
        .map((h, i) => ({ ...h, score: scale[i]! }));
      // the relevance floor: a list whose best item neither covers the message's rare words nor
      // is close in meaning is noise (nonsense still shares a common word with some turn)
      // (the similarity is the adapted message's: its own threshold with the local model). Once the
      // list answers, a turn the ranker chose stays although it shares no word with the message
      // when it holds the kind of answer the message asks for — "What does Leo do for fun?" —
      // "Mostly rock climbing"; a time for a question that asks when — "When was Jo in Bogota?" —
      // "Yesterday we got back from our trip" — or is related in meaning. The floor reads what the
      // search indexed: what was said, what its photos showed and the day it was said ("What did
      // Nate buy in April 2022?"), and who said it: a turn is its speaker's words, so a message
      // that names them ("What activities has Andrew done?") is answered by what they say though
      // they never say their own name.
      const local = provider.name === "local";
      const strongTurn = local ? STRONG_SIMILARITY.localConversation : STRONG_SIMILARITY.other;
      const relatedTurn = local ? RELATED_TURN_SIMILARITY.local : RELATED_TURN_SIMILARITY.other;
      const asksWhen = isWhenQuestion(p.message);
      const judged = judgeScope(
        hits,
        (h) => ({
          text: searchableText(h.speaker, h.content, h.attachments),
          day: longDay(new Date(h.occurredAt)),
          similarity: h.similarity,
          matched:
            h.coverage > 0 ||
            h.answerKinds.length > 0 ||
            (asksWhen && hasTimeExpression(h.content)) ||
            (h.similarity ?? 0) >= relatedTurn,
        }),
        p.message,
        strongTurn,
      );
      return scoped(judged, (i) => ({
        source: "interactions",
        id: i.id,
        title: interactionTitle(i),
        // who said it, what was said and what its photos showed, as the turn was searched
        content: truncate(searchableText(i.speaker, i.content, i.attachments), ITEM_CONTENT_CHARS),
        score: i.score,
        createdAt: i.occurredAt,
        meta: {
          channel: i.channel,
          direction: i.direction,
          speaker: i.speaker,
          contactId: i.contactId,
          lexicalScore: round(i.lexicalScore),
          coverage: round(i.coverage),
          similarity: i.similarity === null ? null : round(i.similarity),
          contextSimilarity: i.contextSimilarity === null ? null : round(i.contextSimilarity),
          conversationCoverage: round(i.conversationCoverage),
          // the kinds of answer the message asks for that the turn holds ("activity", "place", …)
          answerKinds: i.answerKinds,
        },
      }));
    }
    case "knowledge": {
      const hits = await q.searchKnowledge(tx, search);
      return scoped(floor(hits, (k) => `${k.title}\n${k.content}`), (k) => ({
        source: "knowledge",
        id: k.id,
        title: k.title,
        content: truncate(k.content, ITEM_CONTENT_CHARS),
        score: k.score,
        createdAt: k.createdAt,
        meta: { category: k.category, tags: k.tags, version: k.version, ...ranks(k) },
      }));
    }
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const ranks = (h: q.KnowledgeHit | q.MemoryHit | q.DocumentHit) => ({
  fullTextRank: h.fullTextRank,
  semanticRank: h.semanticRank,
  lexicalScore: round(h.lexicalScore),
  coverage: round(h.coverage),
  similarity: h.similarity === null ? null : round(h.similarity),
});

/**
 * An interaction item's title: who said it, on which channel ("From Alice (call)", "Sent by Santos
 * (email)"). The speaker is who spoke — the contact's side inbound, the agent's side outbound — so an
 * agent reading the context never takes what Santos sent for something said to Santos.
 */
function interactionTitle(i: { direction: string; speaker: string; channel: string }): string {
  if (i.direction === "inbound") return `From ${i.speaker || "contact"} (${i.channel})`;
  return i.speaker ? `Sent by ${i.speaker} (${i.channel})` : `To contact (${i.channel})`;
}
