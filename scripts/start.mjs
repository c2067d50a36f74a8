// `npm start`: build once if needed, then serve the console and API on the embedded database
// (or DATABASE_URL). The first start of an empty embedded database loads the demo.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { deriveWordVectors } from "./derive-word-vectors.mjs";

// the local embedding model's word vectors (npm install derives them; this covers --ignore-scripts)
deriveWordVectors();

const distDir = process.env.NEXT_DIST_DIR || ".next";
if (!existsSync(path.join(distDir, "BUILD_ID")) || process.argv.includes("--rebuild")) {
  console.log("Building Memory HQ (first start only)…");
  const build = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "0.0.0.0";
console.log(`Memory HQ on http://localhost:${port} (database: ${process.env.DATABASE_URL ? "DATABASE_URL" : `embedded, ${process.env.DATA_DIR ?? "./.data"}`})`);
// server.mjs: admission at accept, the embedded database in its own thread, graceful shutdown
const child = spawn(process.execPath, ["server.mjs", "-p", port, "-H", host], { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
