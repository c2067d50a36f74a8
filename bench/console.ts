// `npm run bench -- console`: how fast the console's review queue opens as the queue grows. The
// production server (server.mjs on the build, a fresh embedded database) gets 10, 300 and 1,000
// pending suggestions, each set under a client of its own, made through the API; Debian's Chromium
// (playwright-core) then opens /review for each client, signed in as an HQ admin, and the time from
// the navigation's start to the first suggestion row on screen is measured (the page's own clock,
// performance.now(), once the row is visible). Each size: 2 untimed opens, then BENCH_CONSOLE_RUNS
// (default 7). The notes say how many rows were in the document: the queue shows a page of 100,
// windowed, so the rows on screen and not the queue's length decide the work.
// BENCH_PORT picks the server's port (else any free one); the build is made first if there is none.
import path from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { chromium, type Page } from "@playwright/test";
import { ensureBuild, percentile, startServer, stop } from "./server";
import type { BenchModule, BenchRow } from "./measure";
import { freePort } from "./retrieval";

const ADMIN_KEY = "bench-console-admin-key-0123456789";
const SIZES = [10, 300, 1000];
const RUNS = Number(process.env.BENCH_CONSOLE_RUNS || 7);
const WARMUP = 2;
const CONTACTS_PER_CLIENT = 25;
const FOUNDER = { email: "bench@memoryhq.test", password: "bench console password", name: "Bench" };

async function call(base: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Runs `make(i)` for 0..n-1, `concurrency` at a time. */
async function inParallel(n: number, make: (i: number) => Promise<unknown>, concurrency = 8) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, async () => {
    while (next < n) await make(next++);
  }));
}

/** A client with `n` pending suggestions (confidence below the auto-approve threshold: they wait for a person). */
async function queueOf(base: string, n: number): Promise<string> {
  const { client } = await call(base, "POST", "/api/v1/clients", { name: `Bench queue ${n}` });
  const contacts: string[] = [];
  await inParallel(CONTACTS_PER_CLIENT, async (i) => {
    contacts[i] = (await call(base, "POST", "/api/v1/contacts", { name: `Bench customer ${n}-${i}`, clientId: client.id })).contact.id;
  });
  await inParallel(n, (i) =>
    call(base, "POST", "/api/v1/suggestions", { contactId: contacts[i % contacts.length], key: `bench_fact_${i}`, value: `value number ${i}`, confidence: 0.8 }),
  );
  return client.id as string;
}

/** Opens the queue and answers ms from navigation start until the first row is visible, and the rows in the document. */
async function openQueue(page: Page, url: string) {
  await page.goto(url, { waitUntil: "commit" });
  await page.locator('[data-testid="suggestion"]').first().waitFor({ state: "visible", timeout: 60_000 });
  return page.evaluate(() => ({ ms: performance.now(), rows: document.querySelectorAll('[data-testid="suggestion"]').length }));
}

export const benchConsole: BenchModule = async () => {
  const distDir = ensureBuild();
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mhq-bench-console-"));
  const rows: BenchRow[] = [];
  // the bench makes up to 1,000 suggestions with one key as fast as the server takes them: over one
  // caller's default rate, which is not what it measures
  const child = await startServer(distDir, port, {
    DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, CONSOLIDATE_SCHEDULER: "false", ADMISSION_CALLER_RATE: "100000", ADMISSION_CALLER_BURST: "1000000",
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const queues: [number, string][] = [];
    for (const n of SIZES) {
      process.stderr.write(`bench: console: making ${n} pending suggestions…\n`);
      queues.push([n, await queueOf(base, n)]);
    }
    const setup = await fetch(`${base}/api/v1/auth/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(FOUNDER) });
    if (setup.status !== 201) throw new Error(`setup: ${setup.status} ${await setup.text()}`);
    for (const [width, height, label] of [[1440, 900, "desktop"], [390, 844, "phone"]] as const) {
      const context = await browser.newContext({ baseURL: base, viewport: { width, height } });
      const login = await context.request.post("/api/v1/auth/login", { data: { email: FOUNDER.email, password: FOUNDER.password } });
      if (!login.ok()) throw new Error(`login: ${login.status()}`);
      const page = await context.newPage();
      for (const [n, clientId] of queues) {
        const url = `/review?client=${clientId}`;
        for (let i = 0; i < WARMUP; i++) await openQueue(page, url);
        const times: number[] = [];
        let inDocument = 0;
        for (let i = 0; i < RUNS; i++) {
          const { ms, rows: count } = await openQueue(page, url);
          times.push(ms);
          inDocument = count;
        }
        times.sort((a, b) => a - b);
        const row: BenchRow = {
          benchmark: `review queue, ${n.toLocaleString("en-US")} pending: first row visible (${label} ${width}×${height})`,
          n: RUNS,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          notes: `from navigation start, production server; ${inDocument} rows in the document (a page of ${Math.min(n, 100)}${n > 60 ? ", windowed" : ""})`,
        };
        process.stderr.write(`bench: ${row.benchmark}: p50 ${row.p50.toFixed(0)} ms\n`);
        rows.push(row);
      }
      await context.close();
    }
  } catch (err) {
    rows.push({ benchmark: "review queue: first row visible", n: 0, p50: NaN, p95: NaN, notes: `failed: ${err instanceof Error ? err.message : String(err)}` });
  } finally {
    await browser.close();
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  }
  return rows;
};
