import { z } from "zod";
import { agentIdParam, apiViews, defineContract, textParam, timestamp } from "@/lib/http/contract";
import { documentType, getDocumentQuery, listDailyQuery, putDocumentBody } from "./schemas";

/** A document as the API shows it; one never written reads as empty with version 0. */
export const documentView = z
  .object({
    type: documentType,
    date: z.string().nullable().optional().describe("daily notes only: the day, YYYY-MM-DD"),
    content: z.string(),
    version: z.number().int().describe("0: never written"),
    updatedAt: timestamp.nullable(),
    updatedByName: z.string().nullable(),
  })
  .strict().meta({ description: "One of an agent's documents: SOUL, WORKING (the scratchpad) or a daily note." }).register(apiViews, { id: "Document" });

export const documentConflictDetails = z.object({ expectedVersion: z.number().int(), current: documentView }).strict();

export const dailyNoteSummaryView = z
  .object({ date: z.string(), version: z.number().int(), chars: z.number().int(), updatedAt: timestamp })
  .strict().register(apiViews, { id: "DailyNoteSummary" });

// the type is checked by the service so that an unknown type answers 404, as any unknown path does
const documentParams = z.object({ agentId: agentIdParam, type: textParam }).strict();

export const documentContracts = {
  get: defineContract({
    id: "documents.get",
    errors: [
      { code: "validation_failed", when: "date is sent for a document other than daily." },
    ],
    method: "GET", path: "/api/v1/agents/{agentId}/documents/{type}", permission: "documents.read",
    summary: "Read the SOUL, the WORKING document (scratchpad) or a daily note (?date=, default today); never written: empty, version 0",
    params: documentParams, query: getDocumentQuery, response: documentView,
  }),
  put: defineContract({
    id: "documents.put",
    errors: [
      { code: "version_conflict", when: "expectedVersion is stale (0 means the document must not exist yet); details.current is the stored document, to merge with." },
      { code: "validation_failed", when: "The text is over its limit: the WORKING scratchpad holds 2,000 characters, SOUL and daily notes 50,000." },
      { code: "validation_failed", when: "date is sent for a document other than daily." },
    ],
    method: "PUT", path: "/api/v1/agents/{agentId}/documents/{type}", permission: "documents.write",
    summary: "Write a document (409 version_conflict on a stale expectedVersion; working ≤ 2000 characters)",
    params: documentParams, body: putDocumentBody,
    response: z
      .object({ type: documentType, date: z.string().nullable().optional(), version: z.number().int(), updatedAt: timestamp })
      .strict(),
  }),
  listDaily: defineContract({
    id: "documents.listDaily",
    method: "GET", path: "/api/v1/agents/{agentId}/daily", permission: "documents.read", summary: "Dates of the agent's daily notes, newest first",
    params: z.object({ agentId: agentIdParam }).strict(), query: listDailyQuery,
    response: z.object({ today: z.string(), notes: z.array(dailyNoteSummaryView) }).strict(),
  }),
};
