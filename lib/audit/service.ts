import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { can } from "@/lib/auth/permissions";
import { asCaller } from "@/lib/db";
import { csvCell } from "./csv";
import { actionLabel } from "./labels";
import { listAudit, type AuditListEntry } from "./queries";
import type { exportAuditQuery, listAuditQuery } from "./schemas";

/**
 * What of the accounts the caller may read in the log: an HQ user's email address and an agent key's
 * prefix only to who may list them through their own endpoints (GET /hq-users, GET …/keys).
 */
const accountsShownTo = (caller: Caller) => ({
  revealEmails: can(caller, "users.manage"),
  revealKeyPrefixes: can(caller, "keys.manage"),
});

export async function listAuditEntries(caller: Caller, query: z.infer<typeof listAuditQuery>) {
  return asCaller(caller, (tx) => listAudit(tx, { ...query, ...accountsShownTo(caller) }));
}

const CSV_COLUMNS: { header: string; value: (e: AuditListEntry) => unknown }[] = [
  { header: "occurred_at", value: (e) => new Date(e.occurredAt).toISOString() },
  { header: "actor_type", value: (e) => e.actorType },
  { header: "actor_name", value: (e) => e.actorName },
  { header: "actor_id", value: (e) => e.actorId },
  { header: "action", value: (e) => e.action },
  { header: "action_label", value: (e) => actionLabel(e.action, e.details) },
  { header: "target_type", value: (e) => e.targetType },
  { header: "target_id", value: (e) => e.targetId },
  { header: "target_name", value: (e) => e.targetName },
  { header: "agent_name", value: (e) => e.agentName },
  { header: "client_name", value: (e) => e.clientName },
  { header: "details", value: (e) => JSON.stringify(e.details ?? {}) },
];

/** The filtered audit log as CSV (newest first), read in pages through the same keyset cursor. */
export async function exportAuditCsv(caller: Caller, query: z.infer<typeof exportAuditQuery>) {
  const { limit, ...filters } = query;
  const lines = [CSV_COLUMNS.map((c) => c.header).join(",")];
  let cursor: string | undefined;
  let count = 0;
  await asCaller(caller, async (tx) => {
    while (count < limit) {
      const page = await listAudit(tx, { ...filters, ...accountsShownTo(caller), limit: Math.min(500, limit - count), cursor });
      for (const e of page.entries) lines.push(CSV_COLUMNS.map((c) => csvCell(c.value(e))).join(","));
      count += page.entries.length;
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
  });
  return { csv: `${lines.join("\r\n")}\r\n`, count };
}
