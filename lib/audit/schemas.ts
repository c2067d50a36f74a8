import { z } from "zod";

export const listAuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    before: z.iso.datetime({ offset: true }).optional(),
    /** from a previous page's nextCursor */
    cursor: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z\|[0-9a-f-]{36}$/, "use the nextCursor of the previous page")
      .optional(),
    action: z.string().regex(/^[a-z_.-]+$/).max(100).optional(),
  })
  .strict();
