import { z } from "zod";
import { apiViews, defineContract, timestamp } from "@/lib/http/contract";
import { exportAuditQuery, listAuditQuery } from "./schemas";

export const auditEntryView = z
  .object({
    id: z.uuid(),
    occurredAt: timestamp,
    actorType: z.string().describe("agent, hq_user, admin_key or system"),
    actorId: z.string().nullable(),
    actorName: z.string(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    clientId: z.uuid().nullable(),
    details: z.record(z.string(), z.unknown()),
    targetName: z.string().nullable().optional().describe("resolved by the API: the target's current name, and the agent and client the entry concerns"),
    agentId: z.uuid().nullable().optional(),
    agentName: z.string().nullable().optional(),
    clientName: z.string().nullable().optional(),
  })
  .strict().register(apiViews, { id: "AuditEntry" });

export const auditContracts = {
  list: defineContract({
    id: "audit.list",
    method: "GET", path: "/api/v1/audit", permission: "audit.read",
    summary: "The audit log, newest first; pass nextCursor as cursor for the next page",
    query: listAuditQuery,
    response: z.object({ entries: z.array(auditEntryView), nextCursor: z.string().nullable() }).strict(),
  }),
  export: defineContract({
    id: "audit.export",
    method: "GET", path: "/api/v1/audit/export", permission: "audit.read",
    summary: "The filtered audit log as CSV (same filters as the list, up to 10,000 entries)",
    query: exportAuditQuery,
    produces: "text/csv",
  }),
};
