import { z } from "zod";
import { apiTimestamp, keysetCursor } from "@/lib/http/input-guards";

export const AUDIT_ACTOR_TYPES = ["agent", "hq_user", "admin_key", "system"] as const;

const auditFilters = {
  /** an action or action prefix, or several separated by commas: `memory,document` (an area) */
  action: z
    .string()
    .regex(/^[a-z_.-]+(,[a-z_.-]+)*$/, "use action prefixes such as agent_key or memory,document")
    .max(300)
    .optional(),
  actorType: z.enum(AUDIT_ACTOR_TYPES).optional(),
  actor: z.string().trim().min(1).max(200).optional().describe("part of the actor's name (an agent's or HQ user's), case-insensitive"),
  from: apiTimestamp.optional().describe("entries at or after this moment"),
  to: apiTimestamp.optional().describe("entries before this moment"),
};

export const listAuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    before: apiTimestamp.optional(),
    cursor: keysetCursor.optional().describe("from a previous page's nextCursor"),
    ...auditFilters,
  })
  .strict();

/** The CSV export: the same filters, up to 10,000 entries, newest first. */
export const exportAuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
    ...auditFilters,
  })
  .strict();
