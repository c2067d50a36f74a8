import { z } from "zod";
import { defineContract, idParam, timestamp } from "@/lib/http/contract";
import {
  bulkReviewBody,
  contactSentiment,
  contactStage,
  createContactBody,
  createSuggestionBody,
  factHistoryQuery,

  factKeysBody,
  listContactsQuery,
  listSuggestionsQuery,
  lookupContactQuery,
  putFactBody,
  reviewSuggestionBody,
  runReviewBody,
  suggestionStatus,
  updateContactBody,
} from "./schemas";

export const contactStageView = z.enum([...contactStage.options, "opted_out"]);

export const contactView = z
  .object({
    id: z.uuid(),
    clientId: z.uuid().nullable(),
    clientName: z.string().nullable(),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    summary: z.string(),
    stage: contactStageView,
    sentiment: contactSentiment.nullable(),
    optOut: z.boolean(),
    optedOutAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .strict();

export const contactListItemView = contactView.extend({ factCount: z.number().int(), pendingCount: z.number().int() }).strict();

export const factView = z
  .object({
    id: z.uuid(),
    contactId: z.uuid(),
    key: z.string(),
    value: z.string(),
    confidence: z.number(),
    status: z.enum(["active", "superseded"]),
    supersededBy: z.uuid().nullable(),
    supersededAt: timestamp.nullable(),
    sourceSuggestionId: z.uuid().nullable(),
    writtenByType: z.string(),
    writtenByName: z.string(),
    createdAt: timestamp,
  })
  .strict();

export const flagView = z.object({ code: z.string(), message: z.string() }).strict();

export const suggestionView = z
  .object({
    id: z.uuid(),
    contactId: z.uuid(),
    clientId: z.uuid().nullable(),
    key: z.string(),
    value: z.string(),
    confidence: z.number(),
    interactionId: z.uuid().nullable(),
    status: suggestionStatus,
    reason: z.string().nullable(),
    flags: z.array(flagView),
    factId: z.uuid().nullable(),
    proposedByType: z.string(),
    proposedById: z.string().nullable(),
    proposedByName: z.string(),
    reviewedByType: z.string().nullable(),
    reviewedByName: z.string().nullable(),
    reviewedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    contact: z.object({ id: z.uuid(), name: z.string().nullable(), optOut: z.boolean() }).strict(),
    clientName: z.string().nullable(),
    /** the fact this suggestion would replace */
    currentFact: z.object({ id: z.uuid(), value: z.string(), confidence: z.number() }).strict().nullable(),
    /** the conversation it came from (hidden from roles that may not read interactions) */
    interaction: z
      .object({ id: z.uuid(), channel: z.string().nullable(), excerpt: z.string(), occurredAt: timestamp.nullable() })
      .strict()
      .nullable(),
    /** pending ones: the validator's verdict as of now */
    verdict: z.enum(["approve", "review", "refuse"]).nullable().optional(),
  })
  .strict();

const validationView = z
  .object({ outcome: z.enum(["approve", "review", "refuse"]), reasons: z.array(z.string()), flags: z.array(flagView) })
  .strict();

export const managerPassReportView = z
  .object({
    processed: z.number().int(),
    approved: z.number().int(),
    superseded: z.number().int(),
    rejected: z.number().int(),
    left: z.number().int(),
    threshold: z.number(),
    items: z.array(
      z
        .object({
          id: z.uuid(),
          key: z.string(),
          outcome: z.enum(["approved", "superseded", "rejected", "left"]),
          reason: z.string().nullable(),
          factId: z.string().optional(),
        })
        .strict(),
    ),
  })
  .strict();

export const bulkReviewResultView = z
  .object({
    results: z.array(
      z
        .object({
          id: z.string(),
          ok: z.boolean(),
          status: z.string().optional(),
          error: z.object({ code: z.string(), message: z.string() }).strict().optional(),
        })
        .strict(),
    ),
    succeeded: z.number().int(),
    failed: z.number().int(),
  })
  .strict();

const contactParams = z.object({ id: idParam("Contact") }).strict();
const contactWithFacts = z.object({ contact: contactView, facts: z.array(factView) }).strict();
const factKeysView = z.object({ clientId: z.uuid(), keys: z.array(z.string()) }).strict();
const clientParams = z.object({ id: idParam("Client") }).strict();

export const reviewContracts = {
  listContacts: defineContract({
    method: "GET", path: "/api/v1/contacts", permission: "contacts.read", summary: "List the contacts the caller may see",
    query: listContactsQuery, response: z.object({ contacts: z.array(contactListItemView) }).strict(),
  }),
  createContact: defineContract({
    method: "POST", path: "/api/v1/contacts", permission: "contacts.write", summary: "Create a contact (manager agents, HQ admins)",
    body: createContactBody, response: contactWithFacts, status: 201,
  }),
  lookupContact: defineContract({
    method: "GET", path: "/api/v1/contacts/lookup", permission: "contacts.read",
    summary: "A contact and its facts by phone (normalised) or email (case-insensitive)",
    query: lookupContactQuery, response: contactWithFacts,
  }),
  getContact: defineContract({
    method: "GET", path: "/api/v1/contacts/{id}", permission: "contacts.read", summary: "A contact and its current facts",
    params: contactParams, response: contactWithFacts,
  }),
  updateContact: defineContract({
    method: "PATCH", path: "/api/v1/contacts/{id}", permission: "contacts.write",
    summary: "Update a contact's profile (manager agents, HQ admins)", params: contactParams, body: updateContactBody, response: contactWithFacts,
  }),
  factHistory: defineContract({
    method: "GET", path: "/api/v1/contacts/{id}/history", permission: "contacts.read",
    summary: "Every version of the contact's facts, superseded ones included", params: contactParams, query: factHistoryQuery,
    response: z.object({ facts: z.array(factView) }).strict(),
  }),
  putFact: defineContract({
    method: "PUT", path: "/api/v1/contacts/{id}/facts/{key}", permission: "facts.write",
    summary: "Write a fact directly (manager agents, HQ admins; the same rules as an approval)",
    params: z.object({ id: idParam("Contact"), key: z.string() }).strict(), body: putFactBody,
    response: z.object({ fact: factView, replaced: factView.nullable() }).strict(),
  }),
  optOut: defineContract({
    method: "POST", path: "/api/v1/contacts/{id}/opt-out", permission: "contacts.opt_out",
    summary: "Erase the contact's personal data; keep an audit record without it", params: contactParams,
    response: z.object({ contact: contactView, erased: z.record(z.string(), z.union([z.number(), z.boolean()])) }).strict(),
  }),
  getFactKeys: defineContract({
    method: "GET", path: "/api/v1/clients/{id}/fact-keys", permission: "contacts.read",
    summary: "The client's business-relevance allow-list of fact keys", params: clientParams, response: factKeysView,
  }),
  setFactKeys: defineContract({
    method: "PUT", path: "/api/v1/clients/{id}/fact-keys", permission: "relevance.write",
    summary: "Replace the allow-list (empty: no list)", params: clientParams, body: factKeysBody, response: factKeysView,
  }),
  listSuggestions: defineContract({
    method: "GET", path: "/api/v1/suggestions", permission: "suggestions.read",
    summary: "Suggestions with the current fact and the source interaction beside each",
    query: listSuggestionsQuery, response: z.object({ suggestions: z.array(suggestionView) }).strict(),
  }),
  createSuggestion: defineContract({
    method: "POST", path: "/api/v1/suggestions", permission: "suggestions.propose",
    summary: "Propose a fact for the memory manager (422 pii_refused / locked_constant at once; 200 deduplicated for the same pending proposal)",
    body: createSuggestionBody, status: 201,
    response: z
      .object({ suggestion: suggestionView, validation: validationView, deduplicated: z.literal(true).optional() })
      .strict(),
  }),
  reviewSuggestion: defineContract({
    method: "POST", path: "/api/v1/suggestions/{id}/review", permission: "suggestions.review",
    summary: "Approve (optionally with an edited value) or reject a suggestion",
    params: z.object({ id: idParam("Suggestion") }).strict(), body: reviewSuggestionBody,
    response: z.object({ suggestion: suggestionView, fact: factView.optional() }).strict(),
  }),
  bulkReview: defineContract({
    method: "POST", path: "/api/v1/suggestions/bulk-review", permission: "suggestions.review",
    summary: "One decision for many suggestions; each succeeds or fails on its own", body: bulkReviewBody, response: bulkReviewResultView,
  }),
  runManagerPass: defineContract({
    method: "POST", path: "/api/v1/review/run", permission: "review.run",
    summary: "The manager pass over pending suggestions: refuse violations, auto-approve confident ones, leave the rest",
    body: runReviewBody, response: managerPassReportView,
  }),
};
