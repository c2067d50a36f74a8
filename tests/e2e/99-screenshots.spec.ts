import { expect, test } from "@playwright/test";
import { adminHeaders, demoAgentId, signInAsFounder } from "./helpers";

// Full-page screenshots of the data-heavy console pages at desktop and phone width, for a person to look at
// after a layout change. Skipped unless SHOTS=1; written to SHOTS_DIR (default /tmp/shots).
test.skip(!process.env.SHOTS, "set SHOTS=1 to take screenshots");

const DIR = process.env.SHOTS_DIR ?? "/tmp/shots";
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

test("screenshots of the console's data-heavy pages", async ({ page }) => {
  test.setTimeout(900_000);
  await signInAsFounder(page);
  const agent = await demoAgentId("Sybil");
  const saber = await demoAgentId("Saber");
  const contacts = await (await page.request.get("/api/v1/contacts?limit=1", { headers: adminHeaders() })).json();
  const pages: Record<string, string> = {
    dashboard: "/dashboard",
    knowledge: "/knowledge",
    review: "/review",
    audit: "/audit",
    escalations: "/escalations",
    agent: `/agents/${agent}`,
    "agent-memories": `/agents/${agent}?tab=memories`,
    "agent-interactions": `/agents/${agent}?tab=interactions`,
    "agent-decisions": `/agents/${saber}?tab=decisions`,
    contact: `/contacts/${contacts.contacts[0].id}`,
    docs: "/docs",
    contacts: "/contacts",
    agents: "/agents",
  };
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(path);
      await expect(page.locator("main h1").first()).toBeVisible();
      await expect(page.locator('main [role="status"]').filter({ hasText: /Loading/ })).toHaveCount(0, { timeout: 20_000 });
      await page.waitForLoadState("networkidle");
      // what is on screen, and the whole page (a windowed list shows only the rows near the screen in it)
      await page.screenshot({ path: `${DIR}/${name}-${size}.png` });
      await page.screenshot({ path: `${DIR}/${name}-${size}-full.png`, fullPage: true });
    }
  }
});
