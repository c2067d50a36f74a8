import { z } from "zod";
import { agentView } from "@/lib/agents/contracts";
import { documentView } from "@/lib/documents/contracts";
import { agentIdParam, apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
import { lockedConstantView } from "@/lib/locked-constants/contracts";
import { ATTACHMENT_KINDS } from "./attachments";
import {
  createInteractionBatchBody,
  createInteractionBody,
  createMemoryBody,
  listConversationsQuery,
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
  .strict().meta({ description: "Why a decision was made, so its outcome can be judged later." }).register(apiViews, { id: "DecisionContext" });

export const outcomeView = z
  .object({
    result: z.string(),
    success: z.boolean(),
    notes: z.string().optional(),
    scoredAt: z.string(),
    outcomeId: z.string().optional().describe("the learning/outcome memory that records it"),
    decisionId: z.string().optional().describe("on an outcome memory: the decision it scores"),
  })
  .strict().meta({ description: "The observed result of a decision." }).register(apiViews, { id: "Outcome" });

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
    embedded: z.boolean().describe("false while the row waits for re-embedding"),
    promotedFrom: z.array(z.uuid()).describe("the learning memories a core memory was promoted from by the nightly consolidation"),
    needsVerification: z.boolean().describe("a core memory unconfirmed for long: flagged by the consolidation until it is next edited"),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .strict().meta({ description: "One memory of an agent: what it knows (core), is working on (working) or learned (learning)." }).register(apiViews, { id: "Memory" });

/** Memories archived because the agent passed its cap of active memories (core is never archived). */
const archivedView = z.array(z.object({ id: z.uuid(), title: z.string() }).strict());

export const interactionAttachmentView = z
  .object({
    kind: z.enum(ATTACHMENT_KINDS),
    caption: z.string().optional().describe("what it showed: a caption or alt text"),
    name: z.string().optional(),
    url: z.string().optional(),
    mimeType: z.string().optional(),
  })
  .strict().meta({ description: "A photo, file or voice note of a message, as its integration described it." }).register(apiViews, { id: "InteractionAttachment" });

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
    conversationId: z.string().nullable().describe("the caller's thread id, as sent (null when none was sent)"),
    externalId: z.string().nullable().describe("the caller's id of the message, as sent"),
    conversation: z.string().describe("the conversation the turn belongs to, within its agent's: its conversationId, or the id of the conversation inferred for it (which may change when an earlier turn arrives late); GET /interactions?agentId=&conversationId= lists it"),
    attachments: z.array(interactionAttachmentView).describe("photos, files or voice notes of the message, as sent (empty when none)"),
  })
  .strict().meta({ description: "One recorded message of a conversation, searchable as recall memory." }).register(apiViews, { id: "Interaction" });

/** The contacts a page of turns names, so a reader can title its threads by who they were with. */
const namedContactView = z
  .object({
    id: z.uuid(),
    name: z.string().nullable().describe("the contact's name, else its email or phone; null when it opted out (nothing personal is kept)"),
  })
  .strict();

export const conversationView = z
  .object({
    conversation: z.string().describe("the conversation's id (its conversationId, or the id of the one inferred): GET /interactions?conversationId=&agentId= lists its turns"),
    agentId: z.uuid(),
    agentName: z.string().nullable(),
    conversationId: z.string().nullable().describe("the caller's thread id, when it sent one"),
    clientId: z.uuid().nullable(),
    contactId: z.uuid().nullable().describe("the contact the conversation was with (its first turn that names one)"),
    contactName: z.string().nullable().describe("that contact's name, else its email or phone; null when none or opted out"),
    inboundSpeaker: z.string().nullable().describe("who spoke first on the customer's side (the first inbound turn with a speaker): a title when no contact is named"),
    channels: z.array(z.string()).describe("the channels its turns were on, alphabetical"),
    startedAt: timestamp,
    endedAt: timestamp,
    turns: z.number().int().nonnegative(),
    lastTurn: z
      .object({
        direction: z.enum(["inbound", "outbound"]),
        speaker: z.string(),
        content: z.string().describe("its first 200 characters"),
      })
      .strict(),
  })
  .strict().meta({ description: "One conversation (thread) as a list shows it: who it was with, its channels, its time span and its last turn." }).register(apiViews, { id: "Conversation" });

/** One stored turn of a batch, in the order sent. */
const batchItemView = z
  .object({
    id: z.uuid(),
    externalId: z.string().optional(),
    deduplicated: z.literal(true).optional().describe("true when the externalId was already stored: nothing new was written for this item"),
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
    teamHighlights: z.array(memoryView).optional().describe("internal agents only: the team's recent shared memories"),
  })
  .strict().meta({ description: "Everything an agent loads at the start of a session." }).register(apiViews, { id: "BootContext" });

const agentParams = z.object({ agentId: agentIdParam }).strict();
const memoryParams = z.object({ id: idParam("Memory") }).strict();

export const memoryContracts = {
  boot: defineContract({
    id: "memories.boot",
    method: "GET", path: "/api/v1/agents/{agentId}/boot", permission: "memories.read",
    summary: "Boot context: soul, scratchpad, today's note, core memories, pending commitments, recent work, locked constants, team highlights",
    params: agentParams, response: bootView,
  }),
  list: defineContract({
    id: "memories.list",
    method: "GET", path: "/api/v1/agents/{agentId}/memories", permission: "memories.read", summary: "List the agent's memories",
    params: agentParams, query: listMemoriesQuery,
    response: z.object({ memories: z.array(memoryView), total: z.number().int() }).strict(),
  }),
  write: defineContract({
    id: "memories.write",
    errors: [
      { code: "validation_failed", when: "The category does not belong to the tier. Each category lives in one tier: a decision, correction, insight, outcome, pattern, strategy or lesson is a learning memory; a project, thread or commitment is working; identity, client, procedure, preference, principle and team are core." },
      { code: "validation_failed", when: "decisionContext is sent on a memory whose category is not decision." },
      { code: "validation_failed", when: "confidence is below 0.4: below that it is a guess, not a memory." },
      { code: "forbidden", when: "A field agent writes scope team: team memory is for internal agents." },
      { code: "validation_failed", when: "An identity memory is written with scope team: who an agent is stays its own (share knowledge, not identity)." },
      { code: "pii_refused", when: "The title, content, tags or decision context hold an SSN or a payment card number; details.findings names what was found." },
    ],
    method: "POST", path: "/api/v1/agents/{agentId}/memories", permission: "memories.write",
    summary:
      "memory_write: 201 {memory, archived}; 200 {memory, deduplicated: true} on a sourceTraceId already seen, or with reason near_duplicate when a near-identical active memory was reinforced instead",
    params: agentParams, body: createMemoryBody, status: 201,
    repeat: { status: 200, when: "the sourceTraceId was stored before, or a near-identical active memory was reinforced instead (deduplicated: true)." },
    response: z
      .object({
        memory: memoryView,
        archived: archivedView.optional(),
        deduplicated: z.literal(true).optional(),
        reason: z.literal("near_duplicate").optional().describe("near_duplicate: not stored again; the existing memory was reinforced"),
      })
      .strict(),
  }),
  export: defineContract({
    id: "memories.export",
    method: "GET", path: "/api/v1/agents/{agentId}/export", permission: "memories.read",
    summary: "The agent's memory/ folder (core, working, learning, daily notes, soul) as a zip", params: agentParams,
    produces: "application/zip",
  }),
  get: defineContract({
    id: "memories.get",
    method: "GET", path: "/api/v1/memories/{id}", permission: "memories.read", summary: "Read one memory (an agent's read counts as an access)",
    params: memoryParams, response: z.object({ memory: memoryView }).strict(),
  }),
  update: defineContract({
    id: "memories.update",
    errors: [
      { code: "version_conflict", when: "expectedVersion is stale: the memory changed since it was read; details has the current version." },
      { code: "validation_failed", when: "The category does not fit the tier after the change (decisions live in the learning tier)." },
      { code: "validation_failed", when: "decisionContext is set on a memory whose category is not decision." },
      { code: "validation_failed", when: "A team memory would become an identity memory." },
      { code: "pii_refused", when: "The new title, content, tags or decision context hold an SSN or a payment card number." },
    ],
    method: "PATCH", path: "/api/v1/memories/{id}", permission: "memories.write",
    summary: "Edit, resolve, archive or restore a memory (409 version_conflict on a stale expectedVersion)",
    params: memoryParams, body: updateMemoryBody, response: z.object({ memory: memoryView, archived: archivedView }).strict(),
  }),
  outcome: defineContract({
    id: "memories.outcome",
    errors: [
      { code: "validation_failed", when: "The memory is not a decision: outcomes are recorded on decisions only." },
      { code: "conflict", when: "The decision already has an outcome." },
      { code: "pii_refused", when: "The result or notes hold an SSN or a payment card number." },
      { code: "version_conflict", when: "The decision changed while the outcome was being recorded: retry." },
    ],
    method: "POST", path: "/api/v1/memories/{id}/outcome", permission: "memories.write",
    summary: "Record the outcome of a decision: stored on the decision and as a linked learning/outcome memory",
    params: memoryParams, body: outcomeBody, status: 201,
    response: z.object({ decision: memoryView, outcome: memoryView, archived: archivedView }).strict(),
  }),
  listInteractions: defineContract({
    id: "memories.listInteractions",
    errors: [
      { code: "validation_failed", when: "cursor is not a nextCursor this endpoint gave out." },
      { code: "validation_failed", when: "conversationId without agentId from a caller that is not an agent (HQ staff): a conversation belongs to one agent." },
    ],
    method: "GET", path: "/api/v1/interactions", permission: "interactions.read",
    summary: "Recorded interactions, newest first; with conversationId, that conversation's turns in conversation order",
    query: listInteractionsQuery,
    response: z
      .object({
        interactions: z.array(interactionView),
        nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last page"),
        contacts: z.array(namedContactView).describe("the contacts this page's turns name that the caller may see, with their names"),
      })
      .strict(),
  }),
  listConversations: defineContract({
    id: "memories.listConversations",
    errors: [
      { code: "validation_failed", when: "cursor is not a nextCursor this endpoint gave out." },
    ],
    method: "GET", path: "/api/v1/conversations", permission: "interactions.read",
    summary: "Recorded conversations (threads), the most recently active first: who each was with, its channels, time span and last turn",
    query: listConversationsQuery,
    response: z
      .object({
        conversations: z.array(conversationView),
        nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last page"),
      })
      .strict(),
  }),
  createInteraction: defineContract({
    id: "memories.createInteraction",
    errors: [
      { code: "conflict", when: "The contact opted out: nothing more is stored about them." },
      { code: "not_found", when: "contactId names no contact the caller may see, or one of another client." },
      { code: "forbidden", when: "A field agent names another client than its own." },
      { code: "validation_failed", when: "clientId names no client." },
    ],
    method: "POST", path: "/api/v1/interactions", permission: "interactions.write",
    summary:
      "Record one message of a conversation (searchable recall memory): 201 {interaction}; 200 {interaction, deduplicated: true} when its externalId was already stored",
    body: createInteractionBody, status: 201,
    repeat: { status: 200, when: "the externalId was stored before: the stored interaction, deduplicated: true." },
    response: z.object({ interaction: interactionView, deduplicated: z.literal(true).optional() }).strict(),
  }),
  createInteractionBatch: defineContract({
    id: "memories.createInteractionBatch",
    errors: [
      { code: "conflict", when: "The contact opted out: nothing more is stored about them." },
      { code: "not_found", when: "A contactId names no contact the caller may see." },
      { code: "forbidden", when: "A field agent names another client than its own." },
      { code: "validation_failed", when: "The same externalId appears twice in the batch, or a clientId names no client." },
    ],
    method: "POST", path: "/api/v1/interactions/batch", permission: "interactions.write",
    summary:
      "Record a transcript: 1–500 turns in one call, all or nothing (422 with details.index naming the first bad item); answers 201 with each item's id in the order sent, deduplicated: true on an item whose externalId was already stored (a retried batch stores nothing new and answers the same ids)",
    body: createInteractionBatchBody, bodyItems: "interactions", status: 201, maxBodyBytes: 10_000_000,
    repeat: { status: 200, when: "every turn's externalId was stored before (a retried batch): each item deduplicated: true, with the stored ids." },
    response: z.object({ interactions: z.array(batchItemView) }).strict(),
  }),
};
