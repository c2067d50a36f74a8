// GET /api/v1/audit — the audit log, newest first (?limit=&before=&action=) (HQ users)
import { auditContracts as c } from "@/lib/audit/contracts";
import { listAuditEntries } from "@/lib/audit/service";
import { route } from "@/lib/http/route";

export const GET = route(c.list, async ({ caller, query }) => listAuditEntries(caller, query));
