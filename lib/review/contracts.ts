import { z } from "zod";
import { apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
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
    hqErasure: z
      .object({
        name: z.string().nullable(),
        phone: z.string().nullable(),
        email: z.string().nullable(),
        hqRows: z.number().int().describe("rows of no client (knowledge, internal agents' memories and documents) that named the person when the erasure ran"),
        requestedAt: timestamp,
      })
      .strict()
      .nullable()
      .describe(
        "a field manager's opt-out cannot reach HQ's rows of no client: when some still name the person, what to look for is kept here until HQ finishes the erasure (`POST …/opt-out` again) or keeps its rows (`DELETE …/hq-erasure`). Shown to HQ admins and internal managers; null for everyone else",
      ),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .strict().meta({ description: "A person an agent deals with, known to one client or to HQ." }).register(apiViews, { id: "Contact" });

export const contactListItemView = contactView.extend({ factCount: z.number().int(), pendingCount: z.number().int() }).strict().register(apiViews, { id: "ContactListItem" });

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
  .strict().register(apiViews, { id: "Fact" });

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
    currentFact: z.object({ id: z.uuid(), value: z.string(), confidence: z.number() }).strict().nullable().describe("the fact this suggestion would replace"),
    approvedValue: z
      .string()
      .nullable()
      .describe("approved ones: the value stored as the contact's fact — the reviewer's edit where it differs from `value` (the proposal); null otherwise, or once the fact is erased"),
    /** the conversation it came from (hidden from roles that may not read interactions) */
    interaction: z
      .object({ id: z.uuid(), channel: z.string().nullable(), excerpt: z.string(), occurredAt: timestamp.nullable() })
      .strict()
      .nullable(),
    verdict: z.enum(["approve", "review", "refuse"]).nullable().optional().describe("pending ones: the validator's verdict as of now"),
  })
  .strict().meta({ description: "A proposed fact about a contact, waiting for review." }).register(apiViews, { id: "Suggestion" });

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
  .strict().register(apiViews, { id: "ManagerPassReport" });

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
    id: "review.listContacts",
    method: "GET", path: "/api/v1/contacts", permission: "contacts.read",
    summary: "List the contacts the caller may see, the most recently updated first, a page at a time",
    query: listContactsQuery,
    response: z
      .object({
        contacts: z.array(contactListItemView),
        nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last page"),
        total: z.number().int().describe("how many contacts match the filters, all pages"),
      })
      .strict(),
  }),
  createContact: defineContract({
    id: "review.createContact",
    errors: [
      { code: "conflict", when: "A contact with this email or phone already exists." },
      { code: "pii_refused", when: "The text holds personal data the server refuses to store; details.findings names what was found." },
    ],
    method: "POST", path: "/api/v1/contacts", permission: "contacts.write", summary: "Create a contact (manager agents, HQ admins)",
    body: createContactBody, response: contactWithFacts, status: 201,
  }),
  lookupContact: defineContract({
    id: "review.lookupContact",
    errors: [
      { code: "conflict", when: "Several clients know this contact: pass clientId." },
    ],
    method: "GET", path: "/api/v1/contacts/lookup", permission: "contacts.read",
    summary: "A contact and its facts by phone (normalised) or email (case-insensitive)",
    query: lookupContactQuery, response: contactWithFacts,
  }),
  getContact: defineContract({
    id: "review.getContact",
    method: "GET", path: "/api/v1/contacts/{id}", permission: "contacts.read", summary: "A contact and its current facts",
    params: contactParams, response: contactWithFacts,
  }),
  updateContact: defineContract({
    id: "review.updateContact",
    errors: [
      { code: "conflict", when: "Another contact has this email or phone, or the contact opted out." },
      { code: "pii_refused", when: "The text holds personal data the server refuses to store; details.findings names what was found." },
    ],
    method: "PATCH", path: "/api/v1/contacts/{id}", permission: "contacts.write",
    summary: "Update a contact's profile (manager agents, HQ admins)", params: contactParams, body: updateContactBody, response: contactWithFacts,
  }),
  factHistory: defineContract({
    id: "review.factHistory",
    method: "GET", path: "/api/v1/contacts/{id}/history", permission: "contacts.read",
    summary: "Every version of the contact's facts, superseded ones included", params: contactParams, query: factHistoryQuery,
    response: z.object({ facts: z.array(factView) }).strict(),
  }),
  putFact: defineContract({
    id: "review.putFact",
    method: "PUT", path: "/api/v1/contacts/{id}/facts/{key}", permission: "facts.write",
    summary: "Write a fact directly (manager agents, HQ admins; the same rules as an approval)",
    params: z.object({ id: idParam("Contact"), key: z.string() }).strict(), body: putFactBody,
    response: z.object({ fact: factView, replaced: factView.nullable() }).strict(),
  }),
  optOut: defineContract({
    id: "review.optOut",
    method: "POST", path: "/api/v1/contacts/{id}/opt-out", permission: "contacts.opt_out",
    summary: "Erase the contact's personal data; keep an audit record without it", params: contactParams,
    response: z.object({ contact: contactView, erased: z.record(z.string(), z.union([z.number(), z.boolean()])) }).strict(),
  }),
  keepHqMentions: defineContract({
    id: "review.keepHqMentions",
    method: "DELETE", path: "/api/v1/contacts/{id}/hq-erasure", permission: "contacts.opt_out",
    summary: "Keep HQ's rows as they are: drop what a field manager's opt-out kept for HQ to erase (HQ admins, internal managers)",
    params: contactParams, response: z.object({ contact: contactView }).strict(),
  }),
  getFactKeys: defineContract({
    id: "review.getFactKeys",
    method: "GET", path: "/api/v1/clients/{id}/fact-keys", permission: "contacts.read",
    summary: "The client's business-relevance allow-list of fact keys", params: clientParams, response: factKeysView,
  }),
  setFactKeys: defineContract({
    id: "review.setFactKeys",
    method: "PUT", path: "/api/v1/clients/{id}/fact-keys", permission: "relevance.write",
    summary: "Replace the allow-list (empty: no list)", params: clientParams, body: factKeysBody, response: factKeysView,
  }),
  listSuggestions: defineContract({
    id: "review.listSuggestions",
    method: "GET", path: "/api/v1/suggestions", permission: "suggestions.read",
    summary: "Suggestions with the current fact and the source interaction beside each, a page at a time (pending first, oldest first)",
    query: listSuggestionsQuery,
    response: z
      .object({
        suggestions: z.array(suggestionView),
        nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last page"),
        total: z.number().int().optional().describe("how many suggestions match the filters, all pages (left out with `verdict`)"),
        autoApproveThreshold: z.number().describe("the manager pass approves pending suggestions at or above this confidence on its own; below it a person decides"),
      })
      .strict(),
  }),
  createSuggestion: defineContract({
    id: "review.createSuggestion",
    errors: [
      { code: "conflict", when: "The contact opted out: nothing more is stored about them." },
      { code: "pii_refused", when: "The text holds personal data the server refuses to store; details.findings names what was found." },
    ],
    method: "POST", path: "/api/v1/suggestions", permission: "suggestions.propose",
    summary: "Propose a fact for the memory manager: stored pending with the validator's verdict (422 pii_refused at once; 200 deduplicated for the same pending proposal)",
    body: createSuggestionBody, status: 201,
    response: z
      .object({ suggestion: suggestionView, validation: validationView, deduplicated: z.literal(true).optional() })
      .strict(),
  }),
  reviewSuggestion: defineContract({
    id: "review.reviewSuggestion",
    errors: [
      { code: "conflict", when: "The suggestion was already reviewed." },
      { code: "pii_refused", when: "Approval refused: the value holds personal data; the suggestion stays pending." },
      { code: "locked_constant", when: "Approval refused: the value sets or contradicts a locked constant (details.lockedConstants); the suggestion stays pending." },
      { code: "validation_failed", when: "Approval refused: the confidence is below 0.7; the suggestion stays pending." },
    ],
    method: "POST", path: "/api/v1/suggestions/{id}/review", permission: "suggestions.review",
    summary: "Approve (optionally with an edited value) or reject a suggestion",
    params: z.object({ id: idParam("Suggestion") }).strict(), body: reviewSuggestionBody,
    response: z.object({ suggestion: suggestionView, fact: factView.optional() }).strict(),
  }),
  bulkReview: defineContract({
    id: "review.bulkReview",
    method: "POST", path: "/api/v1/suggestions/bulk-review", permission: "suggestions.review",
    summary: "One decision for many suggestions; each succeeds or fails on its own", body: bulkReviewBody, response: bulkReviewResultView,
  }),
  runManagerPass: defineContract({
    id: "review.runManagerPass",
    method: "POST", path: "/api/v1/review/run", permission: "review.run",
    summary: "The manager pass over pending suggestions: refuse violations, auto-approve confident ones, leave the rest",
    body: runReviewBody, response: managerPassReportView,
  }),
};
