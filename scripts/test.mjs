// `npm test`: typecheck, lint, unit, integration on both transports (in-process PGlite and the
// Postgres wire protocol), a production build, and the Playwright end-to-end tests in Chromium.
// Ends with one line "N passed, N failed" counted across every runner.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const out = mkdtempSync(path.join(tmpdir(), "mhq-test-"));
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
const summary = [];

function step(name, cmd, args, { env = {}, count } = {}) {
  if (only.length && !only.includes(name)) return;
  const started = Date.now();
  console.log(`\n━━ ${name}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const ok = r.status === 0;
  const counted = count?.();
  if (counted) {
    passed += counted.passed;
    failed += counted.failed;
  } else if (!count) {
    if (ok) passed++;
    else failed++;
  }
  if (count && !counted && !ok) failed++;
  summary.push(`${ok ? "ok  " : "FAIL"} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) finish(1);
}

function vitestCount(file) {
  return () => {
    if (!existsSync(file)) return undefined;
    const j = JSON.parse(readFileSync(file, "utf8"));
    return { passed: j.numPassedTests ?? 0, failed: j.numFailedTests ?? 0 };
  };
}

function playwrightCount(file) {
  return () => {
    if (!existsSync(file)) return undefined;
    const s = JSON.parse(readFileSync(file, "utf8")).stats ?? {};
    return { passed: s.expected ?? 0, failed: (s.unexpected ?? 0) + (s.flaky ?? 0) };
  };
}

function finish(code) {
  console.log("\n━━ summary");
  for (const line of summary) console.log(line);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code);
}

const vitest = (project, file, env) =>
  step(project === "unit" ? "unit" : env.TEST_TRANSPORT ? "integration-socket" : "integration", "npx", [
    "vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile=${file}`,
  ], { env, count: vitestCount(file) });

step("typecheck", "npx", ["tsc", "--noEmit"]);
step("lint", "npx", ["eslint", ".", "--max-warnings=0"]);
vitest("unit", path.join(out, "unit.json"), {});
vitest("integration", path.join(out, "integration.json"), {});
vitest("integration", path.join(out, "integration-socket.json"), { TEST_TRANSPORT: "socket" });
step("build", "npx", ["next", "build"]);
const pwFile = path.join(out, "e2e.json");
step("e2e", "npx", ["playwright", "test"], { env: { PW_JSON_OUTPUT: pwFile }, count: playwrightCount(pwFile) });
finish(0);
