import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ADMIN_KEY = "e2e-admin-key-0123456789abcdef";
export const E2E_BASE_URL = `http://127.0.0.1:${port}`;
/** Supabase sign-in runs against a second server of the same build, configured at run time. */
export const E2E_SUPABASE_AUTH_PORT = port + 5;
export const E2E_SUPABASE_APP_PORT = port + 6;
const SUPABASE_SPEC = /supabase-auth\.spec\.ts$/;

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.PW_JSON_OUTPUT ? [["list"], ["json", { outputFile: process.env.PW_JSON_OUTPUT }]] : [["list"]],
  use: {
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "chromium", use: { browserName: "chromium" }, testIgnore: SUPABASE_SPEC },
    {
      name: "supabase-auth",
      testMatch: SUPABASE_SPEC,
      use: { browserName: "chromium", baseURL: `http://127.0.0.1:${E2E_SUPABASE_APP_PORT}` },
    },
  ],
  // started one after another: the first builds the app if needed, the others reuse the build
  webServer: [
    {
      command: "node scripts/e2e-server.mjs",
      url: `http://127.0.0.1:${port}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: { E2E_PORT: String(port), ADMIN_API_KEY: E2E_ADMIN_KEY },
    },
    {
      command: `npx tsx tests/helpers/supabase-auth-server.ts --port ${E2E_SUPABASE_AUTH_PORT}`,
      url: `http://127.0.0.1:${E2E_SUPABASE_AUTH_PORT}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: "node scripts/e2e-server.mjs",
      url: `http://127.0.0.1:${E2E_SUPABASE_APP_PORT}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        E2E_PORT: String(E2E_SUPABASE_APP_PORT),
        ADMIN_API_KEY: E2E_ADMIN_KEY,
        NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${E2E_SUPABASE_AUTH_PORT}`,
        NEXT_PUBLIC_SUPABASE_ANON_KEY: "e2e-supabase-anon-key",
      },
    },
  ],
});
