import { existsSync, readFileSync, unlinkSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Snapshots of the embedded database: a gzip'd tar of its data folder, the format PGlite itself loads
 * (`loadDataDir`). Everything about how a snapshot is taken lives here, so the embedded engine can move
 * to another thread or process by rerouting `snapshotPglite` and nothing else.
 */

/** Files of the data folder a snapshot leaves out: the running engine's lock, which a restore must not inherit. */
const SKIPPED = new Set(["postmaster.pid", "postmaster.opts"]);

interface Entry {
  name: string;
  dir: boolean;
  mode: number;
  mtime: number;
  data: Uint8Array;
}

/**
 * A consistent snapshot of an open PGlite as a stream of gzip bytes.
 *
 * Consistency: PGlite runs one statement or transaction at a time behind its own lock (every `query`,
 * `exec` and `transaction` takes it). The files are copied while holding that lock, so the copy is
 * taken between transactions — everything committed before it is in it, nothing half-done is — and
 * writes that arrive meanwhile wait behind it. The lock is given back once the files are copied (the
 * event loop keeps turning between files: requests are accepted and answered from elsewhere meanwhile),
 * then the copy is packed and compressed while the database serves again.
 */
export async function snapshotPglite(pg: PGlite): Promise<ReadableStream<Uint8Array>> {
  // a checkpoint first: the copy then needs little write-ahead log replayed when it is opened
  await pg.exec("checkpoint");
  const entries = await pg._runExclusiveTransaction(() => copyDataFolder(pg));
  return tarStream(entries).pipeThrough(new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
}

async function copyDataFolder(pg: PGlite): Promise<Entry[]> {
  const fs = pg.Module.FS;
  const root: string = pg.Module.ENV.PGDATA;
  const entries: Entry[] = [];
  const walk = async (dir: string) => {
    for (const name of fs.readdir(dir) as string[]) {
      if (name === "." || name === ".." || (dir === root && SKIPPED.has(name))) continue;
      const full = `${dir}/${name}`;
      const st = fs.stat(full);
      const rel = full.slice(root.length + 1);
      if (fs.isDir(st.mode)) {
        entries.push({ name: rel, dir: true, mode: st.mode & 0o7777, mtime: +st.mtime, data: new Uint8Array(0) });
        await walk(full);
      } else {
        entries.push({ name: rel, dir: false, mode: st.mode & 0o7777, mtime: +st.mtime, data: fs.readFile(full, { encoding: "binary" }) });
        // let the server accept and queue other work between files; the lock keeps the files still
        await new Promise((r) => setImmediate(r));
      }
    }
  };
  await walk(root);
  return entries;
}

// ── tar (ustar), written entry by entry ─────────────────────────────────────────────────────────

const enc = new TextEncoder();

function header(e: Entry): Uint8Array {
  const h = new Uint8Array(512);
  let name = e.dir ? `${e.name}/` : e.name;
  let prefix = "";
  if (enc.encode(name).length > 100) {
    const cut = name.lastIndexOf("/", name.length - 2);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  const put = (s: string, at: number, len: number) => h.set(enc.encode(s).subarray(0, len), at);
  const octal = (n: number, at: number, len: number) => put(n.toString(8).padStart(len - 1, "0") + "\0", at, len);
  put(name, 0, 100);
  octal(e.mode || (e.dir ? 0o755 : 0o644), 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(e.dir ? 0 : e.data.length, 124, 12);
  octal(Math.floor(e.mtime / 1000), 136, 12);
  put("        ", 148, 8);
  put(e.dir ? "5" : "0", 156, 1);
  put("ustar\u000000", 257, 8);
  put(prefix, 345, 155);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return h;
}

function tarStream(entries: Entry[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const e = entries[i];
      if (!e) {
        controller.enqueue(new Uint8Array(1024)); // end of archive: two empty blocks
        controller.close();
        return;
      }
      entries[i++] = undefined as never; // handed on: its copy can be freed once compressed
      controller.enqueue(header(e));
      if (e.data.length) {
        controller.enqueue(e.data);
        const pad = (512 - (e.data.length % 512)) % 512;
        if (pad) controller.enqueue(new Uint8Array(pad));
      }
    },
  });
}

// ── restore ─────────────────────────────────────────────────────────────────────────────────────

/** The folder, under DATA_DIR, that holds the embedded database's files. */
export const PGLITE_SUBDIR = "pglite";

/** Refused restore: the target holds something already. */
export class DataDirNotEmptyError extends Error {}

/**
 * Restores a snapshot (gzip'd tar bytes) into `dataDir`, which must be missing or empty: the database
 * lands in `<dataDir>/pglite`, where the app opens it. Returns the opened database; the caller migrates
 * and closes it.
 */
export async function restorePglite(
  snapshot: Uint8Array,
  dataDir: string,
  open: (pgliteDir: string, loadDataDir: Blob) => Promise<PGlite>,
): Promise<PGlite> {
  const dir = path.resolve(dataDir);
  if (existsSync(dir)) {
    const present = await readdir(dir);
    if (present.length) {
      throw new DataDirNotEmptyError(
        `${dir} is not empty (${present.slice(0, 3).join(", ")}${present.length > 3 ? ", …" : ""}): restore only into an empty or new DATA_DIR, so nothing is overwritten`,
      );
    }
  }
  await mkdir(dir, { recursive: true });
  const file = new File([snapshot as BlobPart], "backup.tar.gz", { type: "application/x-gzip" });
  return open(path.join(dir, PGLITE_SUBDIR), file);
}

// ── which process holds a data folder ───────────────────────────────────────────────────────────

const LOCK_FILE = "server.lock";

export interface DataDirHolder {
  pid: number;
  port: string | null;
  startedAt: string;
}

/** Notes in `<dataDir>/server.lock` that this process serves the embedded database there. */
export async function claimDataDir(dataDir: string): Promise<void> {
  const holder: DataDirHolder = { pid: process.pid, port: process.env.PORT ?? null, startedAt: new Date().toISOString() };
  await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify(holder));
  const release = () => {
    try {
      // only our own note: another process may have claimed the folder since
      const current = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), "utf8")) as DataDirHolder;
      if (current.pid === process.pid) unlinkSync(path.join(dataDir, LOCK_FILE));
    } catch {
      /* gone already */
    }
  };
  process.once("exit", release);
}

/** The live process that serves the embedded database in `dataDir`, if any (a stale note is ignored). */
export async function dataDirHolder(dataDir: string): Promise<DataDirHolder | null> {
  let holder: DataDirHolder;
  try {
    holder = JSON.parse(await readFile(path.join(dataDir, LOCK_FILE), "utf8")) as DataDirHolder;
  } catch {
    return null;
  }
  if (holder.pid === process.pid) return null;
  try {
    process.kill(holder.pid, 0);
    return holder;
  } catch (err) {
    // EPERM: alive but another user's
    return (err as NodeJS.ErrnoException).code === "EPERM" ? holder : null;
  }
}
