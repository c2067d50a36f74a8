import { z } from "zod";
import { agentView } from "@/lib/agents/contracts";
import { documentView } from "@/lib/documents/contracts";
import { agentIdParam, defineContract, idParam, timestamp } from "@/lib/http/contract";
import { lockedConstantView } from "@/lib/locked-constants/contracts";
import {
  createInteractionBatchBody,
  createInteractionBody,
  createMemoryBody,
  listInteractionsQuery,
  listMemoriesQuery,
  memoryCategory,
  memoryScope,
  memoryStatus,
  memoryTier,
  outcomeBody,
  updateMemoryBody,
} from "./schemas";

export const decisionContextView = z
  .object({
    reasoning: z.string(),
    alternatives: z.array(z.string()).optional(),
    assumptions: z.array(z.string()).optional(),
    killCriteria: z.string().optional(),
  })
  .strict();

export const outcomeView = z
  .object({
    result: z.string(),
    success: z.boolean(),
    notes: z.string().optional(),
    scoredAt: z.string(),
    /** the learning/outcome memory that records it */
    outcomeId: z.string().optional(),
    /** on an outcome memory: the decision it scores */
    decisionId: z.string().optional(),
  })
  .strict();

export const memoryView = z
  .object({
    id: z.uuid(),
    agentId: z.uuid(),
    scope: memoryScope,
    tier: memoryTier,
    category: memoryCategory,
    title: z.string(),
    content: z.string(),
    source: z.string(),
    confidence: z.number(),
    surpriseScore: z.number().nullable(),
    tags: z.array(z.string()),
    relatedIds: z.array(z.string()),
    decisionContext: decisionContextView.nullable(),
    outcome: outcomeView.nullable(),
    sourceTraceId: z.string().nullable(),
    status: memoryStatus,
    resolvedAt: timestamp.nullable(),
    archivedAt: timestamp.nullable(),
    archiveReason: z.string().nullable(),
    expiresAt: timestamp.nullable(),
    accessedCount: z.number().int(),
    lastAccessedAt: timestamp.nullable(),
    occurredAt: timestamp,
    version: z.number().int(),
    createdByName: z.string(),
    /** false while the row waits for re-embedding */
    embedded: z.boolean(),
    /** the learning memories a core memory was promoted from by the nightly consolidation */
    promotedFrom: z.array(z.uuid()),
    /** a core memory unconfirmed for long: flagged by the consolidation until it is next edited */
    needsVerification: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .strict();

/** Memories archived because the agent passed its cap of active memories (core is never archived). */
const archivedView = z.array(z.object({ id: z.uuid(), title: z.string() }).strict());

export const interactionView = z
  .object({
    id: z.uuid(),
    clientId: z.uuid().nullable(),
    agentId: z.uuid(),
    contactId: z.uuid().nullable(),
    channel: z.string(),
    direction: z.enum(["inbound", "outbound"]),
    speaker: z.string(),
    content: z.string(),
    occurredAt: timestamp,
    embedded: z.boolean(),
    createdAt: timestamp,
    /** the caller's thread id, as sent (null when none was sent) */
    conversationId: z.string().nullable(),
    /** the caller's id of the message, as sent */
    externalId: z.string().nullable(),
    /**
     * the conversation the turn belongs to: its conversationId, or the id of the conversation inferred
     * for it (which may change when an earlier turn arrives late); GET /interactions?conversationId= lists it
     */
    conversation: z.string(),
  })
  .strict();

/** One stored turn of a batch, in the order sent. */
const batchItemView = z
  .object({
    id: z.uuid(),
    externalId: z.string().optional(),
    /** true when the externalId was already stored: nothing new was written for this item */
    deduplicated: z.literal(true).optional(),
  })
  .strict();

export const bootView = z
  .object({
    agent: agentView,
    soul: documentView,
    working: documentView,
    daily: documentView,
    core: z.array(memoryView),
    pending: z.array(memoryView),
    recent: z.array(memoryView),
    lockedConstants: z.array(lockedConstantView),
    /** internal agents only: the team's recent shared memories */
    teamHighlights: z.array(memoryView).optional(),
  })
  .strict();

const agentParams = z.object({ agentId: agentIdParam }).strict();
const memoryParams = z.object({ id: idParam("Memory") }).strict();

export const memoryContracts = {
  boot: defineContract({
    method: "GET", path: "/api/v1/agents/{agentId}/boot", permission: "memories.read",
    summary: "Boot context: soul, scratchpad, today's note, core memories, pending commitments, recent work, locked constants, team highlights",
    params: agentParams, response: bootView,
  }),
  list: defineContract({
    method: "GET", path: "/api/v1/agents/{agentId}/memories", permission: "memories.read", summary: "List the agent's memories",
    params: agentParams, query: listMemoriesQuery,
    response: z.object({ memories: z.array(memoryView), total: z.number().int() }).strict(),
  }),
  write: defineContract({
    method: "POST", path: "/api/v1/agents/{agentId}/memories", permission: "memories.write",
    summary:
      "memory_write: 201 {memory, archived}; 200 {memory, deduplicated: true} on a sourceTraceId already seen, or with reason near_duplicate when a near-identical active memory was reinforced instead",
    params: agentParams, body: createMemoryBody, status: 201,
    response: z
      .object({
        memory: memoryView,
        archived: archivedView.optional(),
        deduplicated: z.literal(true).optional(),
        /** near_duplicate: not stored again; the existing memory was reinforced */
        reason: z.literal("near_duplicate").optional(),
      })
      .strict(),
  }),
  export: defineContract({
    method: "GET", path: "/api/v1/agents/{agentId}/export", permission: "memories.read",
    summary: "The agent's memory/ folder (core, working, learning, daily notes, soul) as a zip", params: agentParams,
    produces: "application/zip",
  }),
  get: defineContract({
    method: "GET", path: "/api/v1/memories/{id}", permission: "memories.read", summary: "Read one memory (an agent's read counts as an access)",
    params: memoryParams, response: z.object({ memory: memoryView }).strict(),
  }),
  update: defineContract({
    method: "PATCH", path: "/api/v1/memories/{id}", permission: "memories.write",
    summary: "Edit, resolve, archive or restore a memory (409 version_conflict on a stale expectedVersion)",
    params: memoryParams, body: updateMemoryBody, response: z.object({ memory: memoryView, archived: archivedView }).strict(),
  }),
  outcome: defineContract({
    method: "POST", path: "/api/v1/memories/{id}/outcome", permission: "memories.write",
    summary: "Record the outcome of a decision: stored on the decision and as a linked learning/outcome memory",
    params: memoryParams, body: outcomeBody, status: 201,
    response: z.object({ decision: memoryView, outcome: memoryView, archived: archivedView }).strict(),
  }),
  listInteractions: defineContract({
    method: "GET", path: "/api/v1/interactions", permission: "interactions.read",
    summary: "Recorded interactions, newest first; with conversationId, that conversation's turns in conversation order",
    query: listInteractionsQuery,
    response: z
      .object({
        interactions: z.array(interactionView),
        /** pass as `cursor` for the next page; null on the last page */
        nextCursor: z.string().nullable(),
      })
      .strict(),
  }),
  createInteraction: defineContract({
    method: "POST", path: "/api/v1/interactions", permission: "interactions.write",
    summary:
      "Record one message of a conversation (searchable recall memory): 201 {interaction}; 200 {interaction, deduplicated: true} when its externalId was already stored",
    body: createInteractionBody, status: 201,
    response: z.object({ interaction: interactionView, deduplicated: z.literal(true).optional() }).strict(),
  }),
  createInteractionBatch: defineContract({
    method: "POST", path: "/api/v1/interactions/batch", permission: "interactions.write",
    summary:
      "Record a transcript: 1–500 turns in one call, all or nothing (422 with details.index naming the first bad item); answers each item's id in the order sent",
    body: createInteractionBatchBody, bodyItems: "interactions", status: 201, maxBodyBytes: 10_000_000,
    response: z.object({ interactions: z.array(batchItemView) }).strict(),
  }),
};
