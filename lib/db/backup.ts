import { createWriteStream, existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { migrate } from "./migrate";
import { openPglite, wrapPglite } from "./pglite";
import { dataDirHolder, PGLITE_SUBDIR, restorePglite, type DataDirHolder } from "./snapshot";

/**
 * Backup and restore of the embedded database from the command line (`npm run db:backup`,
 * `npm run db:restore`): offline on a stopped data folder, or through a running server's endpoint.
 */

/** The data folder is served by a running process: an offline copy could miss what it holds in memory. */
export class DataDirInUseError extends Error {
  constructor(readonly holder: DataDirHolder) {
    super(`the data folder is in use by a running server (pid ${holder.pid}${holder.port ? `, port ${holder.port}` : ""})`);
  }
}

/** Writes a snapshot stream (gzip'd tar) to `file`. */
export async function writeSnapshot(stream: ReadableStream<Uint8Array>, file: string): Promise<number> {
  let bytes = 0;
  const counted = Readable.fromWeb(stream as import("node:stream/web").ReadableStream<Uint8Array>);
  counted.on("data", (chunk: Buffer) => (bytes += chunk.length));
  await pipeline(counted, createWriteStream(file));
  return bytes;
}

/**
 * Snapshots the embedded database in `dataDir` while no server runs on it: opens it, copies it,
 * closes it. Refuses (DataDirInUseError) when a server holds the folder.
 */
export async function backupOffline(dataDir: string, file: string): Promise<number> {
  const dir = path.resolve(dataDir);
  const holder = await dataDirHolder(dir);
  if (holder) throw new DataDirInUseError(holder);
  if (!existsSync(path.join(dir, PGLITE_SUBDIR, "PG_VERSION"))) throw new Error(`There is no embedded database in ${dir} (DATA_DIR) to back up`);
  const { db } = await openPglite(path.join(dir, PGLITE_SUBDIR));
  try {
    return await writeSnapshot(await db.snapshot!(), file);
  } finally {
    await db.close();
  }
}

/**
 * Restores the snapshot in `file` into `dataDir` (missing or empty, else DataDirNotEmptyError) and
 * brings it up to this version's schema, as the app does when it starts on it.
 */
export async function restoreOffline(file: string, dataDir: string): Promise<{ migrations: string[] }> {
  const bytes = new Uint8Array(await readFile(file));
  const pg = await restorePglite(bytes, dataDir, async (dir, loadDataDir) => (await openPglite(dir, { loadDataDir })).pg);
  const db = wrapPglite(pg);
  try {
    const { migrations } = await migrate(db);
    return { migrations };
  } finally {
    await db.close();
  }
}
