import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { asCaller, type Queryable } from "@/lib/db";
import { getEmbeddingProvider, toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { forbidden } from "@/lib/http/errors";
import { recordRetrieval } from "@/lib/metrics/retrieval";
import { countAccess } from "./access-counts";
import { auditImpersonation, resolveAgentView, type AgentView } from "./agent-view";
import { formatRetrievedContext, truncate } from "./format-context";
import { fuseResults, type Candidate, type FusedItem } from "./fuse";
import * as q from "./queries";
import type { retrieveBody, triggerBody } from "./schemas";
import { levelForScopes, normalizeScopes, readableScopes, scopesForLevel, type RetrievalScope } from "./scopes";
import { applyFloor, STRONG_SIMILARITY } from "./relevance";
import type { Classification, TriggerLevel } from "./trigger";
import { classifyAs } from "./vocabulary";

export const DEFAULT_LIMIT = 10;
/** longest text of one item in the API answer (documents and knowledge entries can be long) */
export const ITEM_CONTENT_CHARS = 2000;
/**
 * A candidate found only by vector similarity must be at least this similar (cosine) to the message.
 * Nearest-neighbour search always returns something; below this it is noise. Averaged word vectors
 * (the local model) share a common direction, so unrelated texts still score 0.3–0.6 there; OpenAI's
 * models score unrelated texts ≈ 0.1.
 */
export const MIN_SIMILARITY = 0.12;


/** POST /trigger: the smart trigger's verdict for a message, as the agent would get it. */
export async function triggerFor(caller: Caller, body: z.infer<typeof triggerBody>) {
  const view = await resolveAgentView(caller, body.agentId);
  const classification = await classifyAs(view, body.message);
  if (view.hq) await asCaller(view.hq, (tx) => auditImpersonation(tx, view, "trigger"));
  return { agentId: view.agent.agentId, variant: view.agent.kind, ...classification };
}

/**
 * POST /retrieve: classify the message (or take the caller's scopes), search
 * the scopes the level calls for with hybrid search under the agent's RLS, fuse the results, count
 * what was served, format a context block, and log the call.
 */
export async function retrieve(caller: Caller, body: z.infer<typeof retrieveBody>) {
  const started = performance.now();
  const view = await resolveAgentView(caller, body.agentId);
  const { agent } = view;
  const limit = body.limit ?? DEFAULT_LIMIT;

  let level: TriggerLevel;
  let triggers: Classification["triggers"] = [];
  let scopes: RetrievalScope[];
  let refusedScopes: RetrievalScope[] = [];
  const readable = readableScopes(agent);
  if (body.scopes) {
    // a scope the role may not read is never answered as an empty success: refused by name
    const requested = normalizeScopes(body.scopes);
    refusedScopes = requested.filter((s) => !readable.includes(s));
    scopes = requested.filter((s) => readable.includes(s));
    if (!scopes.length) {
      throw forbidden(`${agent.name} (${agent.kind} ${agent.role}) may not read the scope${refusedScopes.length > 1 ? "s" : ""} ${refusedScopes.join(", ")}`);
    }
    level = levelForScopes(scopes);
  } else {
    level = "none";
    scopes = [];
  }
  /** the smart trigger decides the level, and with it the scopes the role may read */
  const classifyIn = async (tx?: Queryable) => {
    if (body.scopes) return;
    ({ level, triggers } = await classifyAs(view, body.message, tx));
    // the level's scopes the role may read (a specialist's level never reaches conversations)
    scopes = scopesForLevel(level, agent.kind).filter((s) => readable.includes(s));
  };
  const embed = async () => {
    const vectors = scopes.length ? await tryEmbed([body.message]) : null;
    return vectors ? toVectorLiteral(vectors[0]!) : null;
  };
  const message = body.message;
  /**
   * Local first: an internal agent's `local` retrieval whose own scopes find nothing above the
   * relevance floor searches the team's shared memory in the same call ("if local search is
   * insufficient, query the shared knowledge"), and says so.
   */
  let fallback: "shared" | null = null;
  const fallsBack = (found: FusedItem[]) =>
    !body.scopes && level === "local" && agent.kind === "internal" && readable.includes("team") && found.length === 0;

  const logEntry = (items: FusedItem[], tookMs: number): q.RetrievalLogEntry => ({
    agentId: agent.agentId,
    clientId: agent.clientId,
    endpoint: "retrieve",
    callerType: view.hq ? "hq" : "agent",
    level,
    explicitScopes: Boolean(body.scopes),
    scopes,
    triggerKinds: [...new Set(triggers.map((t) => t.kind))],
    items: items.map((i) => ({ source: i.source, id: i.id })),
    tookMs,
    messageChars: body.message.length,
    fallback,
  });
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;

  const searchIn = async (tx: Queryable, embedding: string | null) => {
    let found = scopes.length ? await searchScopes(tx, view, scopes, { message, embedding, limit }) : [];
    if (fallsBack(found)) {
      found = await searchScopes(tx, view, ["team"], { message, embedding, limit });
      fallback = "shared";
      scopes = [...scopes, "team"];
    }
    const took = elapsed();
    // an agent's own retrievals are logged, and what it was served counted, in the same
    // transaction (both statements sent together); HQ's below, in HQ's name (HQ trying the
    // playground is curation, not use)
    if (!view.hq) {
      await Promise.all([
        q.insertRetrievalLog(tx, logEntry(found, took)),
        countAccess(tx, {
          memories: found.filter((i) => i.source === "memories" || i.source === "team").map((i) => i.id),
          knowledge: found.filter((i) => i.source === "knowledge").map((i) => i.id),
        }),
      ]);
    }
    return { items: found, tookMs: took };
  };
  // The local model embeds in process, so the trigger's vocabulary check, the search and the log
  // share one transaction. A remote provider's request is never made while a connection is held:
  // then the trigger runs in a transaction of its own, before the message is embedded.
  let served: { items: FusedItem[]; tookMs: number };
  if (getEmbeddingProvider().name === "local") {
    served = await view.run(async (tx) => {
      await classifyIn(tx);
      return searchIn(tx, await embed());
    });
  } else {
    await classifyIn();
    const embedding = await embed();
    served = await view.run((tx) => searchIn(tx, embedding));
  }
  const { items, tookMs } = served;
  if (view.hq) {
    await asCaller(view.hq, async (tx) => {
      await q.insertRetrievalLog(tx, logEntry(items, tookMs));
      await auditImpersonation(tx, view, "retrieve", { level, items: items.length });
    });
  }
  const context = formatRetrievedContext({ level, triggers, items, fallback });
  recordRetrieval(level, (performance.now() - started) / 1000);
  return {
    agentId: agent.agentId,
    level,
    triggers,
    scopes,
    ...(refusedScopes.length ? { refusedScopes } : {}),
    ...(fallback ? { fallback } : {}),
    items,
    context,
    tookMs,
  };
}

/** Searches each scope (each already limited to what RLS lets the agent read) and fuses them. */
async function searchScopes(
  tx: Queryable,
  view: AgentView,
  scopes: RetrievalScope[],
  p: { message: string; embedding: string | null; limit: number },
): Promise<FusedItem[]> {
  const { agent } = view;
  const provider = getEmbeddingProvider();
  const strong = provider.name === "local" ? STRONG_SIMILARITY.local : STRONG_SIMILARITY.other;
  // memories, documents and knowledge are searched with the message as written (BM25 over
  // Postgres's english lexemes) and vectors of the provider's model only
  const search = { text: p.message, embedding: p.embedding, model: provider.model, limit: p.limit, minSimilarity: MIN_SIMILARITY };
  /** the relevance floor (relevance.ts) over one scope's hits */
  const floor = <T extends { similarity: number | null }>(hits: T[], text: (h: T) => string) =>
    applyFloor(hits, (h) => ({ text: text(h), similarity: h.similarity }), p.message, strong);
  // One transaction, one connection: the scopes' statements are sent together (pipelined) and
  // answered in order, one round trip instead of one per scope.
  const searchScope = async (scope: RetrievalScope): Promise<Candidate[]> => {
    switch (scope) {
      case "memories":
      case "team": {
        const hits = await q.searchMemories(tx, {
          ...search,
          scope: scope === "team" ? "team" : "agent",
          ownerId: scope === "team" ? null : agent.agentId,
        });
        return floor(hits, (m) => `${m.title}\n${m.content}`).map((m) => ({
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
        return floor(hits, (d) => d.content).map((d) => ({
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
        const hits = await q.searchInteractions(tx, {
          message: p.message,
          embedding: p.embedding,
          model: p.embedding ? provider.model : null,
          limit: p.limit,
          agentId: agent.kind === "field" ? null : agent.agentId,
          clientId: agent.kind === "field" ? agent.clientId : null,
        });
        // the relevance floor: a list whose best item neither covers the message's rare words nor
        // is close in meaning is noise (nonsense still shares a common word with some turn)
        const kept = applyFloor(hits, (h) => ({ text: h.content, similarity: h.similarity, matched: h.coverage > 0 }), p.message, strong);
        return kept.map((i) => ({
          source: "interactions",
          id: i.id,
          title: `${i.direction === "inbound" ? "From" : "To"} ${i.speaker || "contact"} (${i.channel})`,
          content: truncate(i.content, ITEM_CONTENT_CHARS),
          score: i.score,
          createdAt: i.occurredAt,
          meta: {
            channel: i.channel,
            direction: i.direction,
            speaker: i.speaker,
            contactId: i.contactId,
            lexicalScore: Math.round(i.lexicalScore * 1000) / 1000,
            coverage: Math.round(i.coverage * 1000) / 1000,
            similarity: i.similarity === null ? null : Math.round(i.similarity * 1000) / 1000,
            contextSimilarity: i.contextSimilarity === null ? null : Math.round(i.contextSimilarity * 1000) / 1000,
            conversationCoverage: Math.round(i.conversationCoverage * 1000) / 1000,
          },
        }));
      }
      case "knowledge": {
        const hits = await q.searchKnowledge(tx, search);
        return floor(hits, (k) => `${k.title}\n${k.content}`).map((k) => ({
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
  };
  const found = await Promise.all(scopes.map(searchScope));
  const lists: Partial<Record<RetrievalScope, Candidate[]>> = Object.fromEntries(scopes.map((scope, i) => [scope, found[i]!]));
  return fuseResults(lists, { limit: p.limit });
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const ranks = (h: q.KnowledgeHit | q.MemoryHit | q.DocumentHit) => ({
  fullTextRank: h.fullTextRank,
  semanticRank: h.semanticRank,
  lexicalScore: round(h.lexicalScore),
  coverage: round(h.coverage),
  similarity: h.similarity === null ? null : round(h.similarity),
});
