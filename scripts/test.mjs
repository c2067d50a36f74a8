// `npm test`: typecheck, lint, unit, integration on three transports (in-process PGlite, PGlite over
// the Postgres wire protocol, and a real PostgreSQL server), a production build, the graceful shutdown of
// its server, API calls through it on both engines, two instances of it on one real PostgreSQL database,
// and the Playwright end-to-end tests in Chromium.
// Ends with one line "N passed, N failed" counted across every runner.
//
// The real-server run needs PostgreSQL with pgvector at TEST_DATABASE_URL (default: the cluster that
// `.ci/postgres.sh start` runs on 127.0.0.1:54329). Outside CI, when none answers, that run is skipped
// with a loud warning; in CI (CI=true) a missing server fails the run.
import { spawnSync } from "node:child_process";
import net from "node:net";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deriveWordVectors } from "./derive-word-vectors.mjs";

// the local embedding model's word vectors, which the tests embed with (npm install derives them)
deriveWordVectors();

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

/** Failed tests, a line each, repeated at the end of the summary: a log's last lines say what broke. */
const failures = [];
// eslint-disable-next-line no-control-regex -- terminal colour codes in the reporters' messages
const COLOURS = /\x1b\[[0-9;]*m/g;
const firstLine = (text) => String(text ?? "").replace(COLOURS, "").split("\n").find((l) => l.trim()) ?? "";

function vitestCount(file) {
  return () => {
    if (!existsSync(file)) return undefined;
    const j = JSON.parse(readFileSync(file, "utf8"));
    for (const suite of j.testResults ?? []) {
      const where = path.relative(process.cwd(), suite.name ?? "");
      const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failedTests) failures.push(`${where} > ${t.title}: ${firstLine(t.failureMessages?.[0])}`);
      // a file that failed outside its tests (a hook, an import)
      if (suite.status === "failed" && !failedTests.length) failures.push(`${where}: ${firstLine(suite.message)}`);
    }
    return { passed: j.numPassedTests ?? 0, failed: j.numFailedTests ?? 0 };
  };
}

function playwrightCount(file) {
  return () => {
    if (!existsSync(file)) return undefined;
    const report = JSON.parse(readFileSync(file, "utf8"));
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          const bad = (t.results ?? []).find((r) => r.status !== "passed" && r.status !== "skipped");
          if (bad && t.status !== "expected" && t.status !== "skipped") {
            failures.push(`${spec.file} > ${spec.title} [${t.projectName}]: ${bad.status} ${firstLine(bad.error?.message ?? bad.errors?.[0]?.message)}`);
          }
        }
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of report.suites ?? []) walk(suite);
    const s = report.stats ?? {};
    return { passed: s.expected ?? 0, failed: (s.unexpected ?? 0) + (s.flaky ?? 0) };
  };
}

function reachable(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 5432) });
    socket.setTimeout(2000);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

function finish(code) {
  console.log("\n━━ summary");
  for (const line of summary) console.log(line);
  for (const line of failures) console.log(`  failed: ${line.slice(0, 400)}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code);
}

const stepName = (project, env) =>
  project === "unit" ? "unit" : env.TEST_TRANSPORT ? `integration-${env.TEST_TRANSPORT}` : "integration";
const vitest = (project, file, env, files = [], name = stepName(project, env)) =>
  step(name, "npx", [
    "vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile=${file}`, ...files,
  ], { env, count: vitestCount(file) });

step("typecheck", "npx", ["tsc", "--noEmit"]);
step("lint", "npx", ["eslint", ".", "--max-warnings=0"]);
vitest("unit", path.join(out, "unit.json"), {});
vitest("integration", path.join(out, "integration.json"), {});
vitest("integration", path.join(out, "integration-socket.json"), { TEST_TRANSPORT: "socket" });
const pgUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:54329/postgres";
const pgAvailable = process.env.CI === "true" || (await reachable(pgUrl));
if (!only.length || only.includes("integration-postgres")) {
  const url = pgUrl;
  if (pgAvailable) {
    vitest("integration", path.join(out, "integration-postgres.json"), { TEST_TRANSPORT: "postgres", TEST_DATABASE_URL: url });
  } else {
    const bar = "!".repeat(100);
    console.log(`\n${bar}\n!! integration-postgres SKIPPED: no PostgreSQL answers at ${url}.`);
    console.log("!! Concurrency and real-server tests did not run. Start a server with");
    console.log("!!   sudo .ci/postgres.sh install && sudo .ci/postgres.sh start   (or set TEST_DATABASE_URL)");
    console.log(`${bar}`);
    summary.push("SKIP integration-postgres (no server)");
  }
}
// a production build renders no page that opens the database (at build time it would migrate, and
// seed, a data folder): built with one that must still not exist afterwards
const buildDataDir = path.join(out, "build-data");
step("build", "npx", ["next", "build"], { env: { DATA_DIR: buildDataDir, DATABASE_URL: "" } });
step("build opens no database", process.execPath, [
  "-e",
  `if (require("node:fs").existsSync(${JSON.stringify(buildDataDir)})) { console.error("next build opened the embedded database in ${buildDataDir}: a page read it at build time"); process.exit(1); }`,
]);
// the production server of that build (server.mjs) on the embedded database: SIGTERM with writes in
// flight, and kill -9 during batch imports
vitest("integration", path.join(out, "graceful-shutdown.json"), { TEST_SERVER_BUILD: "1" }, [
  "tests/integration/graceful-shutdown.test.ts", "tests/integration/import-crash.test.ts",
], "graceful-shutdown");
// the same calls to two servers of that build, bearer-key calls straight to their handlers or through Next.js
vitest("integration", path.join(out, "direct-api.json"), { TEST_SERVER_BUILD: "1" }, ["tests/integration/direct-api.test.ts"], "direct-api");
// API calls through that build's server with Node's fetch, curl and raw sockets: its front door,
// admission and limits, on the embedded database and (when PostgreSQL answers) on PostgreSQL too
vitest("integration", path.join(out, "production-server.json"), {
  TEST_SERVER_BUILD: "1", ...(pgAvailable ? { TEST_TRANSPORT: "postgres", TEST_DATABASE_URL: pgUrl } : {}),
}, ["tests/integration/production-server.test.ts"], "production-server");
// two instances of that build's server on one real PostgreSQL database, driven at once
if (pgAvailable) {
  vitest("integration", path.join(out, "two-instances.json"), {
    TEST_TRANSPORT: "postgres", TEST_DATABASE_URL: pgUrl, TEST_TWO_INSTANCES: "1",
  }, ["tests/integration/two-instances.test.ts"], "two-instances");
} else if (!only.length || only.includes("two-instances")) {
  summary.push("SKIP two-instances (no PostgreSQL server)");
}
const pwFile = path.join(out, "e2e.json");
step("e2e", "npx", ["playwright", "test"], { env: { PW_JSON_OUTPUT: pwFile }, count: playwrightCount(pwFile) });
finish(0);
