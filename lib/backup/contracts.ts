import { defineContract } from "@/lib/http/contract";

export const backupContracts = {
  download: defineContract({
    id: "backup.download",
    errors: [{ code: "conflict", when: "The server runs on PostgreSQL: back it up with pg_dump or the host's backups." }],
    method: "GET", path: "/api/v1/admin/backup", permission: "backup.run",
    summary:
      "A consistent snapshot of the embedded database as a gzip'd tar, streamed while it serves (restore with `npm run db:restore -- FILE`); " +
      "409 on a PostgreSQL server database, which is backed up with pg_dump or the host's backups",
    produces: "application/gzip",
  }),
};
