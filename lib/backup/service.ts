import "server-only";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller, getDatabase, ServerDatabaseError, snapshotEmbedded } from "@/lib/db";
import { ApiError } from "@/lib/http/errors";

/** What a server database answers instead of a snapshot: it has its own backup tools. */
export const SERVER_DATABASE_BACKUP =
  "This instance runs on a PostgreSQL server (DATABASE_URL): back it up with pg_dump (pg_dump --format=custom \"$DATABASE_URL\" > memory-hq.dump) or your host's backups (Supabase: Database → Backups). The backup download is for the embedded database.";

/** The file a backup taken at `takenAt` is saved as. */
const backupFilename = (takenAt: Date) => `memory-hq-backup-${takenAt.toISOString().slice(0, 19).replace(/:/g, "")}Z.tar.gz`;

/**
 * An admin's backup of the embedded database: recorded on the audit log first (so the snapshot holds
 * its own entry), then streamed. A server database is refused with how to back it up instead.
 */
export async function backupDatabase(caller: Caller): Promise<{ stream: ReadableStream<Uint8Array>; filename: string }> {
  if ((await getDatabase()).kind !== "pglite") throw serverDatabase();
  const takenAt = new Date();
  await asCaller(caller, (tx) => recordAudit(tx, { action: "database.backup", targetType: "database", details: { takenAt: takenAt.toISOString() } }));
  try {
    const stream = await snapshotEmbedded();
    return { stream, filename: backupFilename(takenAt) };
  } catch (err) {
    if (err instanceof ServerDatabaseError) throw serverDatabase();
    throw err;
  }
}

/**
 * What a GET would answer, without taking the backup (HEAD): the same refusal on a server database, or
 * the name the file would be saved as now. Nothing is copied and nothing is audited.
 */
export async function describeBackup(): Promise<{ filename: string }> {
  if ((await getDatabase()).kind !== "pglite") throw serverDatabase();
  return { filename: backupFilename(new Date()) };
}

const serverDatabase = () => new ApiError("conflict", SERVER_DATABASE_BACKUP, { database: "postgres", use: "pg_dump" });
