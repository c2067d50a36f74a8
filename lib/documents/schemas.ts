import { z } from "zod";
import { apiDate } from "@/lib/http/input-guards";

export const DOCUMENT_TYPES = ["soul", "working", "daily"] as const;
export const documentType = z.enum(DOCUMENT_TYPES);
export type DocumentType = z.infer<typeof documentType>;

export { charCount, DOCUMENT_MAX_CHARS, WORKING_MAX_CHARS } from "./limits";

export const isoDate = apiDate;

export const getDocumentQuery = z.object({ date: isoDate.optional() }).strict();

export const putDocumentBody = z
  .object({
    content: z.string(),
    expectedVersion: z.number().int().min(0).optional().describe("the version the writer last read; 0 means \"I expect it was never written\". Omitted: last write wins."),
    date: isoDate.optional(),
  })
  .strict();

export const listDailyQuery = z.object({ limit: z.coerce.number().int().min(1).max(366).default(60) }).strict();
