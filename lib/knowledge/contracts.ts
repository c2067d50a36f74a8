import { z } from "zod";
import { apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
import {
  createKnowledgeBody,
  importKnowledgeBody,
  IMPORT_MAX_BODY_BYTES,
  knowledgeCategory,
  knowledgeStatus,
  listKnowledgeQuery,
  restoreKnowledgeBody,
  updateKnowledgeBody,
} from "./schemas";

export const knowledgeEntryView = z
  .object({
    id: z.uuid(),
    title: z.string(),
    content: z.string(),
    category: knowledgeCategory,
    tags: z.array(z.string()),
    version: z.number().int(),
    status: knowledgeStatus,
    createdBy: z.string(),
    updatedBy: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    accessedCount: z.number().int(),
    lastAccessedAt: timestamp.nullable(),
    embedded: z.boolean().describe("false while the embedding is pending: found by full text only until backfilled"),
  })
  .strict().meta({ description: "An entry of HQ's knowledge base." }).register(apiViews, { id: "KnowledgeEntry" });

export const knowledgeSearchHitView = knowledgeEntryView
  .extend({
    score: z.number().describe("0–1: 0.6 · lexicalScore + 0.4 · max(similarity, 0)"),
    lexicalScore: z.number().describe("BM25 relative to the best entry of the query (0–1); 0 when full text did not find the entry"),
    similarity: z.number().nullable().describe("cosine similarity to the query; null without a vector of the query's model"),
    fullTextRank: z.number().nullable().describe("rank in the full-text list, null when full text did not find it"),
    semanticRank: z.number().nullable().describe("rank in the vector list, null when vector search did not find it"),
  })
  .strict().register(apiViews, { id: "KnowledgeSearchHit" });

export const knowledgeVersionView = z
  .object({
    version: z.number().int(),
    title: z.string(),
    content: z.string(),
    category: knowledgeCategory,
    tags: z.array(z.string()),
    status: knowledgeStatus,
    editedBy: z.string(),
    editedAt: timestamp,
    replacedAt: timestamp.nullable().describe("null for the current version"),
    current: z.boolean(),
  })
  .strict().register(apiViews, { id: "KnowledgeVersion" });

export const knowledgeListView = z.discriminatedUnion("mode", [
  z
    .object({
      mode: z.literal("list"),
      entries: z.array(knowledgeEntryView),
      total: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
    })
    .strict(),
  z
    .object({
      mode: z.literal("search"),
      query: z.string(),
      semantic: z.boolean(),
      semanticSkipped: z
        .enum(["unavailable", "unknown_words"])
        .optional()
        .describe("when `semantic` is false, why: the embedding provider is unavailable, or the local model knows none of the query's words (it matched by words only)"),
      entries: z.array(knowledgeSearchHitView),
      /** the query with each word no published title or tag holds replaced by the most alike one that does */
      didYouMean: z.string().optional(),
      /** true when nothing matched as typed and `entries` are the matches of `didYouMean` instead */
      showingDidYouMean: z.boolean().optional(),
      /** hits scoring below this share of the best hit's score are left out as weak matches */
      scoreCutoff: z.number().optional(),
    })
    .strict(),
]);

export const knowledgeImportResultView = z
  .object({
    index: z.number().int().describe("position in the request: `entries` first, then `files`"),
    source: z.enum(["entry", "file"]),
    name: z.string().optional(),
    title: z.string().optional(),
    status: z.enum(["created", "ready", "skipped", "refused"]).describe("`ready`: valid and new, reported by a dry run instead of `created`"),
    reason: z.string().optional(),
    id: z.string().optional(),
  })
  .strict();

export const knowledgeImportReportView = z
  .object({
    dryRun: z.boolean(),
    summary: z
      .object({ total: z.number(), created: z.number(), ready: z.number(), skipped: z.number(), refused: z.number() })
      .strict(),
    results: z.array(knowledgeImportResultView),
  })
  .strict().register(apiViews, { id: "KnowledgeImportReport" });

const entryParams = z.object({ id: idParam("Knowledge entry") }).strict();
const one = z.object({ entry: knowledgeEntryView }).strict();

export const knowledgeContracts = {
  list: defineContract({
    id: "knowledge.list",
    method: "GET", path: "/api/v1/knowledge", permission: "knowledge.read",
    summary: "List entries, or hybrid search with q (BM25 and vector similarity by weighted scores, above a relevance floor); an agent's search results count as accesses",
    query: listKnowledgeQuery, response: knowledgeListView,
  }),
  create: defineContract({
    id: "knowledge.create",
    errors: [
      { code: "conflict", when: "A published entry already has this title; details.existingId names it." },
    ],
    method: "POST", path: "/api/v1/knowledge", permission: "knowledge.write",
    summary: "Create an entry (HQ admin/curator, internal agents with kbAccess write; 409 on a published title)",
    body: createKnowledgeBody, response: one, status: 201,
  }),
  import: defineContract({
    id: "knowledge.import",
    method: "POST", path: "/api/v1/knowledge/import", permission: "knowledge.write",
    summary: "Import many entries (JSON entries and/or markdown files with front matter), reported per item: created, skipped as duplicate title, refused with reasons",
    body: importKnowledgeBody, maxBodyBytes: IMPORT_MAX_BODY_BYTES, response: knowledgeImportReportView,
  }),
  tags: defineContract({
    id: "knowledge.tags",
    method: "GET", path: "/api/v1/knowledge/tags", permission: "knowledge.read", summary: "Tags in use on published entries, with counts",
    response: z.object({ tags: z.array(z.object({ tag: z.string(), count: z.number().int() }).strict()) }).strict(),
  }),
  get: defineContract({
    id: "knowledge.get",
    method: "GET", path: "/api/v1/knowledge/{id}", permission: "knowledge.read", summary: "One entry (an agent's read counts as an access)",
    params: entryParams, response: one,
  }),
  update: defineContract({
    id: "knowledge.update",
    errors: [
      { code: "version_conflict", when: "expectedVersion is stale: details.current is the entry as saved by the other writer." },
      { code: "conflict", when: "Another published entry has the new title." },
    ],
    method: "PATCH", path: "/api/v1/knowledge/{id}", permission: "knowledge.write",
    summary: "Edit an entry; every change keeps the previous version (409 version_conflict on a stale expectedVersion)",
    params: entryParams, body: updateKnowledgeBody, response: one,
  }),
  archive: defineContract({
    id: "knowledge.archive",
    method: "DELETE", path: "/api/v1/knowledge/{id}", permission: "knowledge.write",
    summary: "Archive an entry (never deleted; withdrawn from agents)", params: entryParams, response: one,
  }),
  versions: defineContract({
    id: "knowledge.versions",
    method: "GET", path: "/api/v1/knowledge/{id}/versions", permission: "knowledge.read",
    summary: "Every version of an entry, oldest first; the last is current", params: entryParams,
    response: z
      .object({ entryId: z.uuid(), currentVersion: z.number().int(), versions: z.array(knowledgeVersionView) })
      .strict(),
  }),
  restore: defineContract({
    id: "knowledge.restore",
    errors: [
      { code: "validation_failed", when: "The version named is the current one." },
      { code: "not_found", when: "The version named does not exist." },
    ],
    method: "POST", path: "/api/v1/knowledge/{id}/restore", permission: "knowledge.write",
    summary: "Restore an earlier version as a new version", params: entryParams, body: restoreKnowledgeBody,
    response: z.object({ entry: knowledgeEntryView, restoredFrom: z.number().int() }).strict(),
  }),
};
