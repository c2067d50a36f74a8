import { z } from "zod";

export const listAuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    before: z.iso.datetime({ offset: true }).optional(),
    action: z.string().regex(/^[a-z_.-]+$/).max(100).optional(),
  })
  .strict();
