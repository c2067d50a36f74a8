// GET /api/v1/audit — the audit log, newest first, with target names (?limit=&cursor=&action=&actorType=&actor=&from=&to=) (HQ users)
import { auditContracts as c } from "@/lib/audit/contracts";
import { listAuditEntries } from "@/lib/audit/service";
import { route } from "@/lib/http/route";

export const GET = route(c.list, async ({ caller, query }) => listAuditEntries(caller, query));
