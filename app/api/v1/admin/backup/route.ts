// GET /api/v1/admin/backup — a consistent gzip'd snapshot of the embedded database, streamed (HQ admin); 409 on PostgreSQL
// HEAD /api/v1/admin/backup — the same headers and status, without taking (or auditing) a backup
import { backupContracts as c } from "@/lib/backup/contracts";
import { backupDatabase, describeBackup } from "@/lib/backup/service";
import { route } from "@/lib/http/route";

const headers = (filename: string) => ({
  "content-type": "application/gzip",
  "content-disposition": `attachment; filename="${filename}"`,
  "cache-control": "no-store",
});

export const GET = route(c.download, async ({ caller }) => {
  const { stream, filename } = await backupDatabase(caller);
  return new Response(stream, { headers: headers(filename) });
});

// Without it Next.js would answer HEAD by running GET: a whole snapshot copied and an audit entry, for headers.
export const HEAD = route(c.download, async () => new Response(null, { headers: headers((await describeBackup()).filename) }));
