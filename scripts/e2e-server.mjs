// Serves the production build for the Playwright tests on a fresh embedded database with the demo.
import { spawnSync, spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { deriveWordVectors } from "./derive-word-vectors.mjs";

deriveWordVectors();

const port = process.env.E2E_PORT ?? "3100";
const distDir = process.env.NEXT_DIST_DIR || ".next";
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? `.data-e2e-${port}`);
rmSync(dataDir, { recursive: true, force: true });

if (!existsSync(path.join(distDir, "BUILD_ID"))) {
  const build = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const child = spawn(process.execPath, ["server.mjs", "-p", port, "-H", "127.0.0.1"], {
  stdio: "inherit",
  // the nightly consolidation would change the demo under the tests: off unless a test asks for it
  env: { CONSOLIDATE_SCHEDULER: "false", ...process.env, DATA_DIR: dataDir, SEED_DEMO: "true", NODE_ENV: "production" },
});
const stop = () => child.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", (code) => process.exit(code ?? 0));
