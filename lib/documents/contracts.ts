import { z } from "zod";
import { agentIdParam, defineContract, textParam, timestamp } from "@/lib/http/contract";
import { documentType, getDocumentQuery, listDailyQuery, putDocumentBody } from "./schemas";

/** A document as the API shows it; one never written reads as empty with version 0. */
export const documentView = z
  .object({
    type: documentType,
    /** daily notes only: the day, YYYY-MM-DD */
    date: z.string().nullable().optional(),
    content: z.string(),
    /** 0: never written */
    version: z.number().int(),
    updatedAt: timestamp.nullable(),
    updatedByName: z.string().nullable(),
  })
  .strict();

export const documentConflictDetails = z.object({ expectedVersion: z.number().int(), current: documentView }).strict();

export const dailyNoteSummaryView = z
  .object({ date: z.string(), version: z.number().int(), chars: z.number().int(), updatedAt: timestamp })
  .strict();

// the type is checked by the service so that an unknown type answers 404, as any unknown path does
const documentParams = z.object({ agentId: agentIdParam, type: textParam }).strict();

export const documentContracts = {
  get: defineContract({
    method: "GET", path: "/api/v1/agents/{agentId}/documents/{type}", permission: "documents.read",
    summary: "Read the SOUL, the WORKING document (scratchpad) or a daily note (?date=, default today); never written: empty, version 0",
    params: documentParams, query: getDocumentQuery, response: documentView,
  }),
  put: defineContract({
    method: "PUT", path: "/api/v1/agents/{agentId}/documents/{type}", permission: "documents.write",
    summary: "Write a document (409 version_conflict on a stale expectedVersion; working ≤ 2000 characters)",
    params: documentParams, body: putDocumentBody,
    response: z
      .object({ type: documentType, date: z.string().nullable().optional(), version: z.number().int(), updatedAt: timestamp })
      .strict(),
  }),
  listDaily: defineContract({
    method: "GET", path: "/api/v1/agents/{agentId}/daily", permission: "documents.read", summary: "Dates of the agent's daily notes, newest first",
    params: z.object({ agentId: agentIdParam }).strict(), query: listDailyQuery,
    response: z.object({ today: z.string(), notes: z.array(dailyNoteSummaryView) }).strict(),
  }),
};
