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
  // a transcript open at a turn, and the contact it was with
  const listed = await page.request.get("/api/v1/conversations?limit=50", { headers: adminHeaders() });
  // the longest of the newest conversations with a contact
  const withContact = ((await listed.json()).conversations as { agentId: string; contactId: string | null; conversation: string; turns: number }[])
    .filter((c) => c.contactId)
    .sort((a, b) => b.turns - a.turns)[0];
  if (withContact) {
    const thread = `thread=${encodeURIComponent(withContact.conversation)}&threadAgent=${withContact.agentId}`;
    pages.transcript = `/agents/${withContact.agentId}?tab=interactions&${thread}`;
    pages.contact = `/contacts/${withContact.contactId}?${thread}`;
  }
  pages["escalations-resolved"] = "/escalations?status=resolved";
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
    // the jump-to palette over a page, with something typed
    await page.goto("/agents");
    await expect(page.locator("main h1").first()).toBeVisible();
    await page.keyboard.press("Control+k");
    await page.getByRole("dialog", { name: "Jump to" }).getByRole("combobox").fill("da");
    await expect(page.getByTestId("palette-item").first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: `${DIR}/palette-${size}.png` });
    await page.keyboard.press("Escape");
  }
});
