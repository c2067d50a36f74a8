import { z } from "zod";
import { keysetCursor, rankedKeysetCursor } from "@/lib/http/input-guards";

/** Fact keys: lowercase words joined by dots, dashes or underscores ("preferred_time", "service.address"). */
export const factKey = z
  .string()
  .trim()
  .toLowerCase()
  .max(100)
  .regex(/^[a-z0-9]+([._-][a-z0-9]+)*$/, "use lowercase letters, digits, dots, dashes and underscores");

const factValue = z.string().trim().min(1).max(2000);
const confidence = z.number().min(0).max(1);

export const contactStage = z.enum(["new", "engaged", "qualified", "booked", "customer", "lost"]);
export const contactSentiment = z.enum(["positive", "neutral", "negative"]);

export const createContactBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    phone: z.string().trim().min(3).max(40).optional(),
    email: z.email().max(320).optional(),
    clientId: z.uuid().optional().describe("internal callers name the client (omit for HQ's own contacts); field agents always write their own"),
    summary: z.string().trim().max(4000).optional(),
    stage: contactStage.optional(),
    sentiment: contactSentiment.optional(),
  })
  .strict()
  .refine((b) => b.name || b.phone || b.email, { message: "give at least one of name, phone, email" });

export const updateContactBody = z
  .object({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    phone: z.string().trim().min(3).max(40).nullable().optional(),
    email: z.email().max(320).nullable().optional(),
    summary: z.string().trim().max(4000).optional(),
    stage: contactStage.optional(),
    sentiment: contactSentiment.nullable().optional(),
  })
  .strict();

export const listContactsQuery = z
  .object({
    clientId: z.union([z.uuid(), z.literal("hq")]).optional(),
    q: z.string().trim().min(1).max(200).optional(),
    includeOptedOut: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
    hqErasure: z
      .literal("pending")
      .optional()
      .describe("`pending`: only opted-out contacts whose erasure HQ has still to finish (HQ admins and internal managers see them)"),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: keysetCursor.optional().describe("the nextCursor of the previous page"),
  })
  .strict();

export const lookupContactQuery = z
  .object({
    phone: z.string().trim().min(3).max(40).optional(),
    email: z.string().trim().min(3).max(320).optional(),
    clientId: z.union([z.uuid(), z.literal("hq")]).optional().describe("internal callers: which client's contact (`hq` for HQ's own) when the same number is known to several"),
  })
  .strict()
  .refine((q) => Boolean(q.phone) !== Boolean(q.email), { message: "give exactly one of phone or email" });

export const putFactBody = z.object({ value: factValue, confidence }).strict();

export const factKeysBody = z.object({ keys: z.array(factKey).max(200) }).strict();

export const createSuggestionBody = z
  .object({
    contactId: z.uuid(),
    key: factKey,
    value: factValue,
    confidence,
    interactionId: z.uuid().optional(),
  })
  .strict();

export const suggestionStatus = z.enum(["pending", "approved", "rejected", "superseded"]);

export const suggestionVerdict = z.enum(["approve", "review", "refuse"]);

export const listSuggestionsQuery = z
  .object({
    status: suggestionStatus.optional(),
    contactId: z.uuid().optional(),
    clientId: z.union([z.uuid(), z.literal("hq")]).optional(),
    key: z.string().trim().max(100).optional(),
    q: z.string().trim().min(1).max(200).optional().describe("part of the key, the value, the contact's name or the proposer's name (case-insensitive)"),
    verdict: suggestionVerdict.optional().describe("pending suggestions whose validator verdict, as of now, is this (decided ones have none)"),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: rankedKeysetCursor.optional().describe("the nextCursor of the previous page"),
  })
  .strict();

export const reviewSuggestionBody = z
  .object({
    decision: z.enum(["approve", "reject"]),
    reason: z.string().trim().min(1).max(1000).optional(),
    value: factValue.optional().describe("approve with this value instead of the proposed one (edit-and-approve)"),
  })
  .strict()
  .refine((b) => b.decision === "approve" || b.value === undefined, { message: "value is only for approvals", path: ["value"] });

export const runReviewBody = z
  .object({
    limit: z.number().int().min(1).max(1000).optional().describe("at most this many pending suggestions per run, oldest first"),
  })
  .strict();

export const factHistoryQuery = z.object({ key: z.string().trim().max(100).optional() }).strict();

export const bulkReviewBody = z
  .object({
    ids: z.array(z.uuid()).min(1).max(200),
    decision: z.enum(["approve", "reject"]),
    reason: z.string().trim().min(1).max(1000).optional(),
  })
  .strict();
