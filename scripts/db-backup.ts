// `npm run db:backup -- FILE [--url URL] [--key KEY]`: a consistent snapshot of the embedded database
// (gzip'd tar; restore with `npm run db:restore`). With a server running on DATA_DIR it goes through
// that server's GET /api/v1/admin/backup (admin key: --key or ADMIN_API_KEY; URL: --url, MEMORY_HQ_URL
// or the server's own port); with none, it opens the data folder itself. A PostgreSQL server database
// is backed up with pg_dump instead.
import path from "node:path";
import { getConfig } from "@/lib/config";
import { backupOffline, DataDirInUseError, writeSnapshot } from "@/lib/db/backup";
import { dataDirHolder } from "@/lib/db/snapshot";

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main() {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith("--") && !["--url", "--key"].includes(args[i - 1] ?? ""));
  if (!file) throw new Error("Usage: npm run db:backup -- FILE [--url http://host:port] [--key ADMIN_API_KEY]");
  const config = getConfig();
  const key = option("key") ?? config.ADMIN_API_KEY;
  let url = option("url") ?? process.env.MEMORY_HQ_URL;
  if (config.DATABASE_URL && !url) {
    throw new Error(
      "DATABASE_URL is set: this instance's database is a PostgreSQL server. Back it up with pg_dump " +
        '(pg_dump --format=custom "$DATABASE_URL" > memory-hq.dump) or your host\'s backups; see docs/OPERATIONS.md.',
    );
  }
  const dataDir = path.resolve(config.DATA_DIR);
  const holder = url ? null : await dataDirHolder(dataDir);
  if (holder) url = `http://127.0.0.1:${holder.port ?? "3000"}`;
  const started = performance.now();
  let bytes: number;
  if (url) {
    if (!key) {
      if (holder) throw new DataDirInUseError(holder);
      throw new Error("An admin key is needed to back up through a server: --key KEY or ADMIN_API_KEY");
    }
    const res = await fetch(new URL("/api/v1/admin/backup", url), { headers: { authorization: `Bearer ${key}` } });
    if (!res.ok || !res.body) {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      throw new Error(`${url} answered ${res.status}: ${body?.error?.message ?? res.statusText}`);
    }
    bytes = await writeSnapshot(res.body as ReadableStream<Uint8Array>, file);
    console.log(`Backed up the running server at ${url} to ${file} (${(bytes / 1e6).toFixed(1)} MB gzip'd, ${((performance.now() - started) / 1000).toFixed(1)} s).`);
  } else {
    bytes = await backupOffline(dataDir, file);
    console.log(`Backed up ${dataDir} (offline) to ${file} (${(bytes / 1e6).toFixed(1)} MB gzip'd, ${((performance.now() - started) / 1000).toFixed(1)} s).`);
  }
}

main().catch((err) => {
  if (err instanceof DataDirInUseError) {
    console.error(
      `Refused: ${getConfig().DATA_DIR} is ${err.message}. Copying its files now would not be safe.\n` +
        "Back it up through the server instead: pass its admin key (ADMIN_API_KEY=… or --key …, and --url if it is not on this machine's port),\n" +
        "use the Backup button on the console's Settings page, or stop the server first.",
    );
  } else {
    console.error(err instanceof Error ? err.message : err);
  }
  process.exit(1);
});
