import { z } from "zod";
import { agentIdParam, apiViews, defineContract, timestamp } from "@/lib/http/contract";
import { briefingQuery, contextQuery, retrievalScope, retrievalStatsQuery, retrieveBody, triggerBody } from "./schemas";

export const retrievalLevel = z.enum(["none", "local", "shared", "hq"]);
export const triggerView = z.object({ kind: z.string(), match: z.string() }).strict();

export const retrievedItemView = z
  .object({
    source: retrievalScope,
    id: z.uuid(),
    title: z.string(),
    content: z.string(),
    score: z.number().describe("0–1: the weighted score of lexical relevance (BM25 relative to the best of the query) and cosine similarity"),
    createdAt: timestamp,
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .strict().register(apiViews, { id: "RetrievedItem" });

export const retrieveResultView = z
  .object({
    agentId: z.uuid(),
    level: retrievalLevel,
    triggers: z.array(triggerView),
    scopes: z.array(retrievalScope),
    items: z.array(retrievedItemView),
    context: z.string().describe("ready to paste into a prompt"),
    tookMs: z.number(),
    refusedScopes: z.array(retrievalScope).optional().describe("requested scopes the caller's role may not read: searched around, never answered as empty"),
    fallback: z
      .literal("shared")
      .optional()
      .describe(
        "\"shared\": the level was `local`, the agent's own scopes found nothing above the relevance floor, and the team's shared memory was searched in the same call (internal agents); `scopes` lists it",
      ),
  })
  .strict().meta({ description: "What retrieval found for a message, ranked across scopes." }).register(apiViews, { id: "RetrieveResult" });

export const contextSectionView = z.object({ key: z.string(), title: z.string(), content: z.string() }).strict();

export const assembledContextView = z
  .object({
    agentId: z.uuid(),
    topic: z.string().nullable(),
    sections: z.array(contextSectionView),
    text: z.string().describe("the sections joined: the system prompt"),
    memories: z.array(
      z
        .object({
          id: z.uuid(),
          tier: z.string(),
          category: z.string(),
          title: z.string(),
          reason: z.enum(["relevance", "recency"]),
        })
        .strict(),
    ),
    memorySelection: z.enum(["relevance+recency", "recency"]),
    briefing: z.object({ generatedAt: z.string(), cached: z.boolean() }).strict(),
    tookMs: z.number(),
  })
  .strict().register(apiViews, { id: "AssembledContext" });

/** A suggestion awaiting review, as the briefing and the Dashboard list it. */
const pendingSuggestionView = z
  .object({
    id: z.uuid(),
    key: z.string(),
    value: z.string(),
    confidence: z.number(),
    contactId: z.uuid().optional(),
    contactName: z.string().nullable(),
    proposedByName: z.string(),
    createdAt: timestamp,
  })
  .strict();

const items = <T extends z.ZodType>(item: T) => z.object({ count: z.number().int(), items: z.array(item) }).strict();

export const briefingView = z
  .object({
    agentId: z.string(),
    generatedAt: z.string(),
    expiresAt: z.string(),
    windowHours: z.number(),
    since: timestamp,
    events: z.array(
      z
        .object({
          id: z.uuid(),
          occurredAt: timestamp,
          agentName: z.string().nullable(),
          kind: z.string(),
          outcome: z.string(),
          summary: z.string(),
        })
        .strict(),
    ),
    missions: z.array(
      z.object({ id: z.uuid(), title: z.string(), status: z.string(), summary: z.string(), updatedAt: timestamp }).strict(),
    ),
    interactions: z.array(
      z
        .object({
          id: z.uuid(),
          occurredAt: timestamp,
          agentName: z.string().nullable(),
          channel: z.string(),
          direction: z.string(),
          speaker: z.string(),
          excerpt: z.string(),
        })
        .strict(),
    ),
    proposals: z
      .object({
        suggestions: items(pendingSuggestionView),
        playbookUpdates: items(
          z
            .object({ id: z.uuid(), area: z.string(), title: z.string(), agentName: z.string().nullable(), createdAt: timestamp })
            .strict(),
        ),
      })
      .strict(),
    text: z.string().describe("the `═══ CURRENT SITUATION ═══` section"),
    cached: z.boolean(),
  })
  .strict().register(apiViews, { id: "Briefing" });

const levelCounts = { none: z.number(), local: z.number(), shared: z.number(), hq: z.number() };

export const retrievalStatsView = z
  .object({
    days: z.number().int(),
    since: z.string(),
    perDay: z.array(z.object({ day: z.string(), total: z.number(), ...levelCounts }).strict()),
    totals: z
      .object({
        retrievals: z.number(),
        contextAssemblies: z.number(),
        playgroundRuns: z.number(),
        emptyRetrievals: z.number(),
        p50Ms: z.number().nullable(),
        p95Ms: z.number().nullable(),
        avgItems: z.number().nullable(),
      })
      .strict(),
    knowledge: z
      .object({
        mostRetrieved: z.array(
          z
            .object({ id: z.uuid(), title: z.string(), category: z.string(), accessedCount: z.number(), lastAccessedAt: timestamp.nullable() })
            .strict(),
        ),
        neverRetrieved: z.array(z.object({ id: z.uuid(), title: z.string(), category: z.string(), createdAt: timestamp }).strict()),
        neverRetrievedCount: z.number(),
      })
      .strict(),
    pendingReviews: z.object({ suggestions: z.number(), playbookUpdates: z.number() }).strict(),
    openItems: z
      .object({
        decisionsAwaitingOutcome: z.array(
          z
            .object({ id: z.uuid(), title: z.string(), agentId: z.uuid().optional(), agentName: z.string(), scope: z.string(), createdAt: timestamp })
            .strict(),
        ),
        decisionsAwaitingOutcomeCount: z.number(),
        pendingSuggestions: z.array(pendingSuggestionView),
      })
      .strict(),
  })
  .strict().register(apiViews, { id: "RetrievalStats" });

const agentParams = z.object({ agentId: agentIdParam }).strict();

export const retrievalContracts = {
  trigger: defineContract({
    id: "retrieval.trigger",
    method: "POST", path: "/api/v1/trigger", permission: "retrieval.use",
    summary: "Smart trigger: the retrieval level and the triggers that fired (HQ: as agentId)", body: triggerBody,
    response: z
      .object({ agentId: z.uuid(), variant: z.enum(["internal", "field"]), level: retrievalLevel, triggers: z.array(triggerView) })
      .strict(),
  }),
  retrieve: defineContract({
    id: "retrieval.retrieve",
    method: "POST", path: "/api/v1/retrieve", permission: "retrieval.use",
    summary: "Hybrid retrieval across the scopes the level calls for (or `scopes`), fused, with a context block",
    body: retrieveBody, response: retrieveResultView,
  }),
  context: defineContract({
    id: "retrieval.context",
    method: "GET", path: "/api/v1/agents/{agentId}/context", permission: "retrieval.use",
    summary: "Assembled system-prompt sections: soul, scratchpad, current situation, memories (3 relevant + 2 recent), locked constants",
    params: agentParams, query: contextQuery, response: assembledContextView,
  }),
  briefing: defineContract({
    id: "retrieval.briefing",
    method: "GET", path: "/api/v1/agents/{agentId}/briefing", permission: "retrieval.use",
    summary: "Situational briefing: last 6 hours of events, missions, others' conversations, pending proposals (cached 5 minutes)",
    params: agentParams, query: briefingQuery, response: briefingView,
  }),
  stats: defineContract({
    id: "retrieval.stats",
    method: "GET", path: "/api/v1/retrieval/stats", permission: "retrieval.analytics",
    summary: "Dashboard: retrievals per level per day, most and never retrieved knowledge, pending reviews, open items",
    query: retrievalStatsQuery, response: retrievalStatsView,
  }),
};
