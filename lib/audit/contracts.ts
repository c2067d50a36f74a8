import { z } from "zod";
import { defineContract, timestamp } from "@/lib/http/contract";
import { listAuditQuery } from "./schemas";

export const auditEntryView = z
  .object({
    id: z.uuid(),
    occurredAt: timestamp,
    /** agent, hq_user, admin_key or system */
    actorType: z.string(),
    actorId: z.string().nullable(),
    actorName: z.string(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    clientId: z.uuid().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .strict();

export const auditContracts = {
  list: defineContract({
    method: "GET", path: "/api/v1/audit", permission: "audit.read",
    summary: "The audit log, newest first; pass nextCursor as cursor for the next page",
    query: listAuditQuery,
    response: z.object({ entries: z.array(auditEntryView), nextCursor: z.string().nullable() }).strict(),
  }),
};
