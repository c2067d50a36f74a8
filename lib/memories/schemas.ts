import { z } from "zod";
import { apiTimestamp, conversationCursor, sequenceCursor } from "@/lib/http/input-guards";
import {
  CATEGORIES_BY_TIER,
  categoryFitsTier,
  CONTENT_MAX_CHARS,
  MEMORY_CATEGORIES,
  MEMORY_SCOPES,
  MEMORY_STATUSES,
  MEMORY_TIERS,
  LOW_CONFIDENCE,
  LOW_CONFIDENCE_TTL_DAYS,
  MIN_CONFIDENCE,
  TITLE_MAX_CHARS,
} from "./rules";
import {
  ATTACHMENT_CAPTION_MAX_CHARS,
  ATTACHMENT_KINDS,
  ATTACHMENT_MIME_TYPE_MAX_CHARS,
  ATTACHMENT_NAME_MAX_CHARS,
  ATTACHMENT_URL_MAX_CHARS,
  ATTACHMENTS_MAX,
} from "./attachments";

/** "core: identity, client, …; working: …; learning: …" — which categories each tier holds */
const categoriesByTier = Object.entries(CATEGORIES_BY_TIER)
  .map(([tier, categories]) => `${tier}: ${categories.join(", ")}`)
  .join("; ");

export const memoryTier = z
  .enum(MEMORY_TIERS)
  .describe(
    "core: lasting facts (identity, clients, procedures, preferences), never archived by the cap; working: what is in progress (projects, threads, commitments); learning: what experience taught (decisions, corrections, insights, outcomes)",
  );
export const memoryCategory = z
  .enum(MEMORY_CATEGORIES as [string, ...string[]])
  .describe(`must belong to the tier — ${categoriesByTier}`);
export const memoryStatus = z.enum(MEMORY_STATUSES).describe("active; resolved (a kept commitment, a closed thread); archived");
export const memoryScope = z
  .enum(MEMORY_SCOPES)
  .describe("agent (default): the agent's own; team: shared with the other internal agents");

const title = z
  .string()
  .trim()
  .min(1)
  .max(TITLE_MAX_CHARS, `title is limited to ${TITLE_MAX_CHARS} characters`)
  .describe("a short, searchable summary");
const content = z.string().max(CONTENT_MAX_CHARS).describe("the details, in plain text or markdown");
const confidence = z
  .number()
  .min(MIN_CONFIDENCE, `confidence must be at least ${MIN_CONFIDENCE}; below that, do not store it`)
  .max(1)
  .describe(
    `how sure the agent is, ${MIN_CONFIDENCE}–1: below ${MIN_CONFIDENCE} it is a guess and is refused; a learning memory below ${LOW_CONFIDENCE} expires after ${LOW_CONFIDENCE_TTL_DAYS} days unless it is used`,
  );
const tags = z.array(z.string().trim().min(1).max(60)).max(30).describe("up to 30 tags of at most 60 characters");
const relatedIds = z.array(z.uuid()).max(50).describe("ids of related memories (up to 50)");
const surpriseScore = z
  .number()
  .min(0)
  .max(1)
  .describe("0–1: how unexpected this was; learning tier only (core and working memories have none: a score given with them is not kept)");
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
    sourceTraceId: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe("the caller's id of the run or message this came from: a second write with the same id stores nothing and answers the first"),
    surpriseScore: surpriseScore.optional(),
    decisionContext: decisionContext.optional().describe("why a decision was made; only on category decision"),
    relatedIds: relatedIds.optional(),
    occurredAt: timestamp.optional().describe("when it happened (default: now)"),
    source: z.string().trim().max(100).optional().describe("who the knowledge came from: \"bridget\", \"a2a\", \"auto\", …"),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (!categoryFitsTier(m.tier, m.category)) {
      ctx.addIssue({ code: "custom", path: ["category"], message: `category "${m.category}" does not belong to tier "${m.tier}"` });
    }
    if (m.scope === "team" && m.category === "identity") {
      // share knowledge, not identity: who an agent is stays its own
      ctx.addIssue({ code: "custom", path: ["scope"], message: "an identity memory stays the agent's own: share knowledge, not identity" });
    }
    if (m.decisionContext && m.category !== "decision") {
      ctx.addIssue({ code: "custom", path: ["decisionContext"], message: "decisionContext belongs to decisions only" });
    }
  });

export const listMemoriesQuery = z
  .object({
    tier: memoryTier.optional(),
    category: memoryCategory.optional(),
    status: z.enum([...MEMORY_STATUSES, "all"]).default("active").describe("default `active`; `all` lists every status"),
    scope: memoryScope.optional(),
    q: z.string().trim().min(1).max(200).optional().describe("full-text search over title and content"),
    outcome: z.enum(["awaiting", "worked", "failed"]).optional().describe("decisions: `awaiting` an outcome, or scored as `worked` or `failed`"),
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
    expectedVersion: z.number().int().min(1).optional().describe("the version last read; a stale one answers 409"),
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

/** A photo, file or voice note of a message: what it showed, for search and transcripts. */
export const interactionAttachment = z
  .object({
    kind: z.enum(ATTACHMENT_KINDS),
    caption: z
      .string()
      .trim()
      .max(ATTACHMENT_CAPTION_MAX_CHARS)
      .optional()
      .describe("what it showed: a caption or alt text (searched with the message and shown in transcripts)"),
    name: z.string().trim().min(1).max(ATTACHMENT_NAME_MAX_CHARS).optional().describe("a file name"),
    url: z
      .url({ protocol: /^https?$/, error: "an http(s) URL" })
      .max(ATTACHMENT_URL_MAX_CHARS)
      .optional()
      .describe("where the file is (http or https); stored as given, never fetched"),
    mimeType: z
      .string()
      .trim()
      .max(ATTACHMENT_MIME_TYPE_MAX_CHARS)
      .regex(/^[\w.+-]+\/[\w.+-]+$/, "a media type such as image/jpeg")
      .optional(),
  })
  .strict();

/** A channel's name: short, lower case (sms, email, call, chat). */
const channel = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, "a short channel name such as sms, email, call, chat");

export const createInteractionBody = z
  .object({
    contactId: z.uuid().optional(),
    clientId: z.uuid().optional().describe("internal agents name the client; a field agent's interactions are always its own client's"),
    channel,
    direction: z.enum(["inbound", "outbound"]),
    speaker: z.string().trim().max(200).optional(),
    content: z.string().trim().min(1).max(20_000),
    occurredAt: timestamp.optional(),
    conversationId: callerId.optional().describe("The caller's own thread, session or call id. The caller's turns with the same conversationId form one conversation whatever their channel, contact or times (another agent's turns with the same id are another conversation); without it, a conversation is inferred (same agent, contact, client and channel, each turn at most 6 hours after the one before)."),
    externalId: callerId.optional().describe("The caller's id of this message, unique per agent: sending it again stores nothing and answers the stored interaction with deduplicated: true, so a retry never duplicates a turn."),
    attachments: z
      .array(interactionAttachment)
      .max(ATTACHMENTS_MAX)
      .optional()
      .describe(`photos, files or voice notes of the message (at most ${ATTACHMENTS_MAX}): their captions are searched with it and shown in transcripts`),
  })
  .strict();

/** Most turns one batch may carry. */
export const INTERACTION_BATCH_MAX = 500;

export const createInteractionBatchBody = z
  .object({
    interactions: z.array(createInteractionBody).min(1).max(INTERACTION_BATCH_MAX).describe("the turns in the order they were said: turns with equal occurredAt keep this order"),
  })
  .strict();

export const listInteractionsQuery = z
  .object({
    agentId: z.uuid().optional().describe("one agent's interactions; with conversationId, whose conversation (default: the calling agent's own)"),
    clientId: z.uuid().optional(),
    contactId: z.uuid().optional(),
    channel: channel.optional().describe("only turns on this channel"),
    conversationId: callerId
      .optional()
      .describe(
        "one conversation, in conversation order: a conversationId the agent sent, or an inferred conversation's id. A conversation belongs to one agent: the caller's own, or agentId's (HQ staff must name agentId)",
      ),
    q: z.string().trim().min(1).max(200).optional(),
    before: timestamp.optional().describe("only turns before this time (newest first)"),
    cursor: sequenceCursor.optional().describe("the nextCursor of the previous page"),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

export const listConversationsQuery = z
  .object({
    agentId: z.uuid().optional().describe("only this agent's conversations"),
    clientId: z.uuid().optional().describe("only conversations of this client"),
    contactId: z.uuid().optional().describe("only conversations with a turn with this contact"),
    channel: channel.optional().describe("only conversations with a turn on this channel"),
    cursor: conversationCursor.optional().describe("the nextCursor of the previous page"),
    limit: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();
