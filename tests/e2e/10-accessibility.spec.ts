import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminHeaders, FOUNDER, signInAsFounder } from "./helpers";

const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** axe impacts that fail the suite: a page with one of these is hard or impossible to use with assistive technology. */
const BLOCKING = new Set(["serious", "critical"]);

async function firstId(request: APIRequestContext, path: string, key: string): Promise<string> {
  const res = await request.get(path, { headers: adminHeaders() });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  const rows = (await res.json())[key] as { id: string }[];
  expect(rows.length, `${path} lists something`).toBeGreaterThan(0);
  return rows[0]!.id;
}

const sybil = (request: APIRequestContext) => demoAgentIdVia(request, "Sybil");

async function demoAgentIdVia(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.get("/api/v1/agents", { headers: adminHeaders() });
  const agent = ((await res.json()).agents as { id: string; name: string }[]).find((a) => a.name === name);
  expect(agent, `demo agent ${name}`).toBeTruthy();
  return agent!.id;
}

type Address = string | ((request: APIRequestContext) => Promise<string>);

/** A page with a demo conversation open in its transcript (the newest one, with a contact when asked). */
async function threadAddress(request: APIRequestContext, pagePath: (c: { agentId: string; contactId: string }) => string, withContact = ""): Promise<string> {
  const res = await request.get("/api/v1/conversations?limit=50", { headers: adminHeaders() });
  const rows = (await res.json()).conversations as { agentId: string; contactId: string | null; conversation: string }[];
  const c = rows.find((r) => !withContact || r.contactId);
  expect(c, "a demo conversation").toBeTruthy();
  const base = pagePath({ agentId: c!.agentId, contactId: c!.contactId ?? "" });
  return `${base}${base.includes("?") ? "&" : "?"}thread=${encodeURIComponent(c!.conversation)}&threadAgent=${c!.agentId}`;
}
const agentTab = (tab?: string): Address => async (request) => `/agents/${await sybil(request)}${tab ? `?tab=${tab}` : ""}`;

/** Every console page: detail pages on a demo record, and each tab of an agent's page. */
const CONSOLE_PAGES: Record<string, Address> = {
  Dashboard: "/dashboard",
  Agents: "/agents",
  "Agent · overview": agentTab(),
  "Agent · SOUL": agentTab("soul"),
  "Agent · scratchpad": agentTab("scratchpad"),
  "Agent · daily notes": agentTab("daily"),
  "Agent · memories": agentTab("memories"),
  "Agent · decisions": agentTab("decisions"),
  "Agent · interactions": agentTab("interactions"),
  "Agent · reports": agentTab("reports"),
  "Review queue": "/review",
  Contacts: "/contacts",
  Contact: async (request) => `/contacts/${await firstId(request, "/api/v1/contacts", "contacts")}`,
  Client: async (request) => `/clients/${await firstId(request, "/api/v1/clients", "clients")}`,
  Knowledge: "/knowledge",
  "Knowledge · new entry": "/knowledge/new",
  "Knowledge · entry": async (request) => `/knowledge/${await firstId(request, "/api/v1/knowledge", "entries")}`,
  "Agent · interactions · a thread open": async (request) => threadAddress(request, (c) => `/agents/${c.agentId}?tab=interactions`),
  "Contact · a thread open": async (request) => threadAddress(request, (c) => `/contacts/${c.contactId}`, "?contactId="),
  Escalations: "/escalations",
  "Escalations · resolved": "/escalations?status=resolved",
  Outcomes: "/outcomes",
  Retrieval: "/retrieval",
  "Locked constants": "/constants",
  Audit: "/audit",
  Users: "/users",
  Docs: "/docs",
  "Not found": "/no-such-page",
};

/** Waits until the page's data has loaded: no loading placeholder is left. */
async function settle(page: Page) {
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.locator('main [role="status"]').filter({ hasText: /Loading/ })).toHaveCount(0, { timeout: 20_000 });
  await page.waitForLoadState("networkidle");
}

async function blockingViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => BLOCKING.has(v.impact ?? ""))
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")} — ${n.failureSummary?.split("\n").slice(1).join(" ").trim()}`).join("\n")}`);
}

// One sign-in per width, then every page in turn: each page's violations are reported on their own
// (soft assertions), and the suite does not pay for 50 sign-ins.
for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`axe at ${size} width (${viewport.width}×${viewport.height}): no serious or critical violations on any console page`, async ({ page }) => {
    // axe over 25 full pages takes minutes on a loaded machine
    test.setTimeout(25 * 60_000);
    await page.setViewportSize(viewport);
    await signInAsFounder(page);
    for (const [name, address] of Object.entries(CONSOLE_PAGES)) {
      await test.step(name, async () => {
        const path = typeof address === "string" ? address : await address(page.request);
        await page.goto(path);
        await settle(page);
        const found = await blockingViolations(page);
        expect.soft(found, `${name} (${path}):\n${found.join("\n")}`).toEqual([]);
      });
    }
  });
}

test("the jump-to palette, the consolidation preview and the resolve dialog with its near-duplicates have no serious or critical axe violations", async ({ page }) => {
  await signInAsFounder(page);
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard");
    await settle(page);
    await page.keyboard.press("Control+k");
    await page.getByRole("dialog", { name: "Jump to" }).getByRole("combobox").fill("s");
    await expect(page.getByTestId("palette-item").first()).toBeVisible();
    const palette = await blockingViolations(page);
    expect.soft(palette, `palette at ${size}:\n${palette.join("\n")}`).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByTestId("consolidation-card").getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("region", { name: "Preview of a run now" })).toBeVisible();
    const preview = await blockingViolations(page);
    expect.soft(preview, `consolidation preview at ${size}:\n${preview.join("\n")}`).toEqual([]);
    await page.goto("/escalations");
    await settle(page);
    const resolve = page.getByTestId("escalation-card").getByRole("button", { name: "Resolve" }).first();
    if (await resolve.count()) {
      await resolve.click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await page.waitForLoadState("networkidle");
      const dialog = await blockingViolations(page);
      expect.soft(dialog, `resolve dialog at ${size}:\n${dialog.join("\n")}`).toEqual([]);
      await page.keyboard.press("Escape");
    }
  }
});

test("the sign-in page has no serious or critical axe violations", async ({ page }) => {
  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await page.goto("/login");
    await expect(page.getByRole("button", { name: /Sign in/ })).toBeVisible();
    // its content is the page's one main landmark, as on every console page
    await expect(page.getByRole("main")).toHaveCount(1);
    expect(await blockingViolations(page)).toEqual([]);
  }
});

test("a list that fits one page shows its count without a navigation landmark: the constants page's lists have no landmarks of one name", async ({ page }) => {
  await signInAsFounder(page);
  await page.goto("/constants");
  await expect(page.getByTestId("pager-range").first()).toBeVisible();
  expect(await page.getByTestId("pager-range").count()).toBeGreaterThan(1);
  await expect(page.getByRole("navigation", { name: "Pages of constants" })).toHaveCount(0);
  const landmarks = await page.getByRole("navigation").evaluateAll((navs) => navs.map((n) => n.getAttribute("aria-label")));
  expect(new Set(landmarks).size).toBe(landmarks.length);
});

// The console has no route-level loading boundary (each page shows its own loading state as its data
// arrives), so a page that calls notFound() answers with the 404 status, not a 200 already sent.
test("an unknown console address answers 404 with the not-found page", async ({ page }) => {
  await signInAsFounder(page);
  for (const path of ["/no-such-page", "/agents/not-an-id/extra", "/knowledge/not-an-id", "/agents/not-an-id"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  }
  const signedOut = await page.request.fetch("/no-such-page", { headers: { cookie: "" }, maxRedirects: 0 });
  expect([307, 404]).toContain(signedOut.status());
});

test("a skip link is the first thing Tab reaches and moves to the page's content", async ({ page }) => {
  await signInAsFounder(page);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  // the next Tab lands inside the page's content, not back in the navigation
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
});

test.describe("at phone width", () => {
  test.use({ viewport: VIEWPORTS.phone });

  test("the knowledge list shows each entry as a card with its fields, filters folded behind a Filters button", async ({ page }) => {
    await signInAsFounder(page);
    await page.goto("/knowledge");
    await settle(page);
    const category = page.getByRole("combobox", { name: "Category" });
    await expect(category).toBeHidden();
    const filters = page.getByRole("button", { name: /^Filters/ });
    await expect(filters).toHaveAttribute("aria-expanded", "false");
    await filters.click();
    await expect(category).toBeVisible();
    await category.selectOption({ label: "Procedure" });
    await expect(filters).toContainText("1");

    const card = page.getByTestId("knowledge-row").first();
    // one column of cards: each field under its label, none cut off to the side
    for (const label of ["Category", "Tags", "Version", "Last edited", "Used by agents"]) {
      const cell = card.locator(`td[data-label="${label}"]`);
      await expect(cell).toBeVisible();
      expect(await cell.evaluate((td) => getComputedStyle(td, "::before").content)).toBe(`"${label}"`);
    }
    const box = await card.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
  });

  test("the menu is a modal panel: focus moves into it and stays there, Esc closes it and the focus returns", async ({ page }) => {
    await signInAsFounder(page);
    await page.goto("/review");
    await settle(page);
    const button = page.getByRole("button", { name: "Open menu" });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await button.click();
    const menu = page.getByRole("dialog", { name: "Navigation" });
    await expect(menu).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    // the page you are on has the focus, and Tab never reaches the page behind the panel (past the
    // panel's last link it goes to the browser's own controls, then back to the panel)
    await expect(menu.getByRole("link", { name: /^Review queue/ })).toBeFocused();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      expect(await menu.evaluate((d) => d.contains(document.activeElement) || document.activeElement === document.body)).toBe(true);
    }
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await menu.getByRole("link", { name: /^Agents/ }).focus();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    // a link in it goes there and closes it
    await button.click();
    await menu.getByRole("link", { name: /^Knowledge/ }).click();
    await expect(page).toHaveURL(/\/knowledge$/);
    await expect(menu).toBeHidden();
  });

  test("a client's long name and a summary with a word longer than the screen stay inside the page", async ({ page }) => {
    await signInAsFounder(page);
    const name = `Acme Roofing & Gutters, a client whose name runs on and on past any phone ${Date.now().toString(36)}`;
    const client = await page.request.post("/api/v1/clients", { headers: adminHeaders(), data: { name } });
    expect(client.status()).toBe(201);
    const contact = await page.request.post("/api/v1/contacts", {
      headers: adminHeaders(),
      data: { name: "Long Summary", clientId: (await client.json()).client.id, summary: `See https://example.test/${"x".repeat(3000)}` },
    });
    expect(contact.status()).toBe(201);
    await page.goto(`/contacts/${(await contact.json()).contact.id}`);
    await settle(page);
    await expect(page.getByRole("link", { name: new RegExp(`^${name.slice(0, 20)}`) })).toBeVisible();
    for (const width of [VIEWPORTS.phone.width, 1440]) {
      await page.setViewportSize({ width, height: 844 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `at ${width} px`).toBeLessThanOrEqual(width);
    }
  });

  test("the review queue shows no keyboard hints", async ({ page }) => {
    await signInAsFounder(page);
    await page.goto("/review");
    await settle(page);
    await expect(page.getByTestId("suggestion").first()).toBeVisible();
    await expect(page.getByLabel("Keyboard shortcuts")).toBeHidden();
  });
});

test("the audit log's actor name filter applies as it is typed, without Enter", async ({ page }) => {
  await signInAsFounder(page);
  await page.goto("/audit");
  await settle(page);
  await page.getByLabel("Actor name").fill(FOUNDER.name);
  await expect(page).toHaveURL(new RegExp(`[?&]actor=${FOUNDER.name}\\b`));
  await expect(page.getByTestId("audit-row").first().locator("td").nth(1)).toContainText(FOUNDER.name);
});
