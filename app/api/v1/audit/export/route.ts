// GET /api/v1/audit/export — the filtered audit log as CSV (?action=&actorType=&actor=&from=&to=&limit=) (HQ users)
import { auditContracts as c } from "@/lib/audit/contracts";
import { exportAuditCsv } from "@/lib/audit/service";
import { route } from "@/lib/http/route";

export const GET = route(c.export, async ({ caller, query }) => {
  const { csv } = await exportAuditCsv(caller, query);
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    },
  });
});
