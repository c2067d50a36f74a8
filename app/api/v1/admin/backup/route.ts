// GET /api/v1/admin/backup — a consistent gzip'd snapshot of the embedded database, streamed (HQ admin); 409 on PostgreSQL
import { backupContracts as c } from "@/lib/backup/contracts";
import { backupDatabase } from "@/lib/backup/service";
import { route } from "@/lib/http/route";

export const GET = route(c.download, async ({ caller }) => {
  const { stream, filename } = await backupDatabase(caller);
  return new Response(stream, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
});
