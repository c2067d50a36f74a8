// GET /api/v1/audit — the audit log, newest first, with target names (?limit=&cursor=&action=&actorType=&actor=&from=&to=) (HQ users)
import { listAuditQuery } from "@/lib/audit/schemas";
import { listAuditEntries } from "@/lib/audit/service";
import { route } from "@/lib/http/route";

export const GET = route({ permission: "audit.read", query: listAuditQuery }, async ({ caller, query }) =>
  listAuditEntries(caller, query),
);
