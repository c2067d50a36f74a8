// `npm run bench`: runs every bench module against a fresh embedded database (PGlite on disk in a
// temporary folder, the local embedder) and prints one table. Figures are medians and 95th
// percentiles of sequential calls in one process; they are measurements, not pass/fail tests.
// To add a module: export a BenchModule from bench/<name>.ts and list it in MODULES.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { formatTable, type BenchModule, type BenchRow } from "./measure";

const MODULES: { name: string; load: () => Promise<BenchModule>; onlyWhenNamed?: boolean }[] = [
  { name: "agent-memory", load: async () => (await import("./agent-memory")).benchAgentMemory },
  { name: "retrieval", load: async () => (await import("./retrieval")).benchRetrieval },
  { name: "knowledge", load: async () => (await import("./knowledge")).benchKnowledge },
  { name: "quality", load: async () => (await import("./quality")).benchQuality },
  { name: "trigger", load: async () => (await import("./trigger")).benchTrigger },
  { name: "import", load: async () => (await import("./import")).benchImport },
  // not in the default run (it starts servers and takes minutes): `npm run bench -- load`
  { name: "load", load: async () => (await import("./load")).benchLoad, onlyWhenNamed: true },
  // fits the conversation ranker's weights (--write replaces lib/retrieval/search/conversation-ranker.json)
  { name: "fit-ranker", load: async () => (await import("./fit-ranker")).benchFitRanker, onlyWhenNamed: true },
  // not in the default run either (it starts the server and a browser): `npm run bench -- console`
  { name: "console", load: async () => (await import("./console")).benchConsole, onlyWhenNamed: true },
  // one dry run and one real run of the nightly consolidation over 30,000 due memories: `npm run bench -- consolidation`
  { name: "consolidation", load: async () => (await import("./consolidation")).benchConsolidation, onlyWhenNamed: true },
  // likewise (`npm run bench -- neighbours`): one caller's load beside another's, and the front door's figures
  { name: "neighbours", load: async () => (await import("./neighbours")).benchNeighbours, onlyWhenNamed: true },
  // likewise (`npm run bench -- locomo-http`): LoCoMo imported and asked through the production server
  { name: "locomo-http", load: async () => (await import("./locomo-http")).benchLocomoHttp, onlyWhenNamed: true },
];

async function main() {
  // the local embedding model's word vectors (npm install derives them)
  const derived = spawnSync(process.execPath, ["scripts/derive-word-vectors.mjs"], { stdio: "inherit" });
  if (derived.status !== 0) process.exit(derived.status ?? 1);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mhq-bench-"));
  // the bench never touches a configured server database or a remote embedding provider — except
  // the load bench, which runs against DATABASE_URL too when it is set
  if (process.env.DATABASE_URL) process.env.BENCH_SERVER_DATABASE_URL = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = dataDir;
  process.env.SEED_DEMO = "false";
  process.env.EMBEDDINGS_PROVIDER = "local";
  // `--data DIR` belongs to the quality and fit-ranker modules (`--ranker-loco FILE` to quality, `--loco FILE`
  // to fit-ranker, also to locomo-http), `--sizes` to the retrieval module, `--engines` to it and to locomo-http
  const args = process.argv.slice(2);
  const only = args.filter((a, i) => !a.startsWith("--") && !["--data", "--sizes", "--engines", "--loco", "--ranker-loco"].includes(args[i - 1] ?? ""));
  const rows: BenchRow[] = [];
  try {
    for (const m of MODULES) {
      if (only.length ? !only.includes(m.name) : m.onlyWhenNamed) continue;
      process.stderr.write(`bench: ${m.name}…\n`);
      rows.push(...(await (await m.load())()));
    }
    if (rows.length) console.log(formatTable(rows));
  } finally {
    // the database a module opened through the app's own path, if any (opening one only to close it
    // would migrate a fresh database first: minutes after the table was printed)
    const { closeDatabase } = await import("@/lib/db");
    await closeDatabase();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
