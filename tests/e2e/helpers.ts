import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { createMemoryHq } from "@/lib/sdk";
import { E2E_ADMIN_KEY, E2E_BASE_URL } from "../../playwright.config";

/** The founder: the first admin that 01-foundation creates through the UI; later specs sign in as her. */
export const FOUNDER = { email: "founder@memoryhq.test", password: "correct horse battery", name: "Bridget" };

export const adminKey = E2E_ADMIN_KEY;

/** Creates the founder if HQ has no admin yet (201), or finds her there already (409). */
export async function ensureFounder(request: APIRequestContext) {
  const res = await request.post("/api/v1/auth/setup", { data: FOUNDER });
  expect([201, 409]).toContain(res.status());
}

/** Signs the page's browser context in as the founder (the cookie is shared with the page). */
export async function signInAsFounder(page: Page) {
  await ensureFounder(page.request);
  const res = await page.request.post("/api/v1/auth/login", {
    data: { email: FOUNDER.email, password: FOUNDER.password },
  });
  expect(res.status()).toBe(200);
}

/** The TypeScript client with the ADMIN_API_KEY, for arranging and checking data a test needs. */
export const adminApi = () => createMemoryHq({ baseUrl: E2E_BASE_URL, key: E2E_ADMIN_KEY });

/** The id of a demo agent, by name. */
export async function demoAgentId(name: string): Promise<string> {
  const agent = (await adminApi().agents.list()).agents.find((a) => a.name === name);
  expect(agent, `demo agent ${name}`).toBeTruthy();
  return agent!.id;
}

/** Headers with the ADMIN_API_KEY, for calls made through Playwright's request context. */
export function adminHeaders() {
  return { authorization: `Bearer ${E2E_ADMIN_KEY}` };
}

export const unique = (base: string) => `${base} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
