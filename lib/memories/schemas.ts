import { z } from "zod";
import { apiTimestamp } from "@/lib/http/input-guards";
import {
  categoryFitsTier,
  CONTENT_MAX_CHARS,
  MEMORY_CATEGORIES,
  MEMORY_SCOPES,
  MEMORY_STATUSES,
  MEMORY_TIERS,
  MIN_CONFIDENCE,
  TITLE_MAX_CHARS,
} from "./rules";

export const memoryTier = z.enum(MEMORY_TIERS);
export const memoryCategory = z.enum(MEMORY_CATEGORIES as [string, ...string[]]);
export const memoryStatus = z.enum(MEMORY_STATUSES);
export const memoryScope = z.enum(MEMORY_SCOPES);

const title = z.string().trim().min(1).max(TITLE_MAX_CHARS, `title is limited to ${TITLE_MAX_CHARS} characters`);
const content = z.string().max(CONTENT_MAX_CHARS);
const confidence = z
  .number()
  .min(MIN_CONFIDENCE, `confidence must be at least ${MIN_CONFIDENCE}; below that, do not store it`)
  .max(1);
const tags = z.array(z.string().trim().min(1).max(60)).max(30);
const relatedIds = z.array(z.uuid()).max(50);
const surpriseScore = z.number().min(0).max(1);
const timestamp = apiTimestamp;

/** why a decision was made, so its outcome can be judged later */
export const decisionContext = z
  .object({
    reasoning: z.string().trim().min(1).max(4000),
    alternatives: z.array(z.string().max(1000)).max(20).optional(),
    assumptions: z.array(z.string().max(1000)).max(20).optional(),
    killCriteria: z.string().max(2000).optional(),
  })
  .strict();

export const createMemoryBody = z
  .object({
    tier: memoryTier,
    category: memoryCategory,
    title,
    content: content.optional(),
    confidence,
    tags: tags.optional(),
    scope: memoryScope.optional(),
    sourceTraceId: z.string().trim().min(1).max(200).optional(),
    surpriseScore: surpriseScore.optional(),
    decisionContext: decisionContext.optional(),
    relatedIds: relatedIds.optional(),
    occurredAt: timestamp.optional(),
    /** who the knowledge came from: "bridget", "a2a", "auto", … */
    source: z.string().trim().max(100).optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (!categoryFitsTier(m.tier, m.category)) {
      ctx.addIssue({ code: "custom", path: ["category"], message: `category "${m.category}" does not belong to tier "${m.tier}"` });
    }
    if (m.decisionContext && m.category !== "decision") {
      ctx.addIssue({ code: "custom", path: ["decisionContext"], message: "decisionContext belongs to decisions only" });
    }
  });

export const listMemoriesQuery = z
  .object({
    tier: memoryTier.optional(),
    category: memoryCategory.optional(),
    /** default `active`; `all` lists every status */
    status: z.enum([...MEMORY_STATUSES, "all"]).default("active"),
    scope: memoryScope.optional(),
    /** full-text search over title and content */
    q: z.string().trim().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  })
  .strict();

export const updateMemoryBody = z
  .object({
    tier: memoryTier.optional(),
    category: memoryCategory.optional(),
    title: title.optional(),
    content: content.optional(),
    confidence: confidence.optional(),
    tags: tags.optional(),
    status: memoryStatus.optional(),
    surpriseScore: surpriseScore.nullable().optional(),
    decisionContext: decisionContext.nullable().optional(),
    relatedIds: relatedIds.optional(),
    /** the version last read; a stale one answers 409 */
    expectedVersion: z.number().int().min(1).optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).some((k) => k !== "expectedVersion"), { message: "nothing to change" });

export const outcomeBody = z
  .object({
    result: z.string().trim().min(1).max(2000),
    success: z.boolean(),
    notes: z.string().max(4000).optional(),
    occurredAt: timestamp.optional(),
  })
  .strict();

/** A caller's id (a thread or a message id): any text up to 200 characters. */
const callerId = z.string().trim().min(1).max(200);

export const createInteractionBody = z
  .object({
    contactId: z.uuid().optional(),
    /** internal agents name the client; a field agent's interactions are always its own client's */
    clientId: z.uuid().optional(),
    channel: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z][a-z0-9_-]{0,31}$/, "a short channel name such as sms, email, call, chat"),
    direction: z.enum(["inbound", "outbound"]),
    speaker: z.string().trim().max(200).optional(),
    content: z.string().trim().min(1).max(20_000),
    occurredAt: timestamp.optional(),
    /**
     * The caller's own thread, session or call id. Turns with the same conversationId form one
     * conversation whatever their channel, contact or times; without it, a conversation is inferred
     * (same agent, contact, client and channel, each turn at most 6 hours after the one before).
     */
    conversationId: callerId.optional(),
    /**
     * The caller's id of this message, unique per agent: sending it again stores nothing and answers
     * the stored interaction with deduplicated: true, so a retry never duplicates a turn.
     */
    externalId: callerId.optional(),
  })
  .strict();

/** Most turns one batch may carry. */
export const INTERACTION_BATCH_MAX = 500;

export const createInteractionBatchBody = z
  .object({
    /** the turns in the order they were said: turns with equal occurredAt keep this order */
    interactions: z.array(createInteractionBody).min(1).max(INTERACTION_BATCH_MAX),
  })
  .strict();

export const listInteractionsQuery = z
  .object({
    agentId: z.uuid().optional(),
    clientId: z.uuid().optional(),
    contactId: z.uuid().optional(),
    /** one conversation (a caller's conversationId, or an inferred conversation's id), in conversation order */
    conversationId: callerId.optional(),
    q: z.string().trim().min(1).max(200).optional(),
    /** only turns before this time (newest first) */
    before: timestamp.optional(),
    /** the nextCursor of the previous page */
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();
