import { z } from "zod";
import { apiTimestamp, keysetCursor } from "@/lib/http/input-guards";

export const listAuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    before: apiTimestamp.optional(),
    /** from a previous page's nextCursor */
    cursor: keysetCursor.optional(),
    action: z.string().regex(/^[a-z_.-]+$/).max(100).optional(),
  })
  .strict();
