import { expect, test, type Page } from "@playwright/test";
import { adminHeaders, demoAgentId, signInAsFounder } from "./helpers";
import { HqShell } from "./pages/hq-shell";
import { KnowledgePage } from "./pages/knowledge-page";
import { importKnowledge, inParallel, makeContacts, sunriseId } from "./volume";

// The console at team volume, at desktop and phone width: lists page one way with their state in the
// address, an edit survives a tab switch, a sidebar click and a reload, destructive actions follow one
// pattern, and decisions are compact rows with a filter. Hundreds of rows are made through the API.

const WIDTHS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const token = () => Date.now().toString(36) + Math.random().toString(36).slice(2, 5);

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test("the knowledge base pages 200 entries 50 at a time, its search, filters and page in the address, at both widths", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAsFounder(page);
  const tag = `vol${token()}`;
  const report = await importKnowledge(page.request, 200, (i) => `Volume ${tag} case ${String(i + 1).padStart(3, "0")}: what to say when a customer asks about a long and winding topic`, () => [tag, "volume", "procedures"]);
  expect(report.summary.created).toBe(200);
  const kb = new KnowledgePage(page);

  for (const [size, viewport] of Object.entries(WIDTHS)) {
    await test.step(size, async () => {
      await page.setViewportSize(viewport);
      await page.goto(`/knowledge?tag=${tag}`);
      await expect(page.getByTestId("knowledge-row")).toHaveCount(50);
      await expect(page.getByTestId("pager-range")).toHaveText("1–50 of 200 entries");
      await page.getByRole("navigation", { name: "Pages of entries" }).getByRole("button", { name: "Next" }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]tag=${tag}.*[?&]?page=2|page=2.*tag=${tag}`));
      await expect(page.getByTestId("pager-range")).toHaveText("51–100 of 200 entries");
      await page.reload();
      await expect(page.getByTestId("pager-range")).toHaveText("51–100 of 200 entries");
      await expect(page.getByLabel("Tag")).toHaveValue(tag);
      if (size === "desktop") {
        // a long title keeps the width; the tags column does not take it
        const row = page.getByTestId("knowledge-row").first();
        const title = await row.locator("td").first().boundingBox();
        const tags = await row.locator('td[data-label="Tags"]').boundingBox();
        expect(title!.width).toBeGreaterThan(tags!.width * 1.5);
        expect(tags!.width).toBeLessThanOrEqual(200);
      } else {
        await noSidewaysScroll(page);
        await expect(page.getByTestId("header-section")).toHaveText("Knowledge");
      }
      await page.goBack();
      await expect(page.getByTestId("pager-range")).toHaveText("1–50 of 200 entries");
    });
  }
  await kb.search(`${tag} case 007`);
  await expect(page).toHaveURL(/[?&]q=/);
});

test("an edit survives a tab switch, a sidebar click and a reload; leaving asks first; saving clears the draft", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsFounder(page);
  const title = `Draft journey ${token()}`;
  const created = await page.request.post("/api/v1/knowledge", {
    headers: adminHeaders(),
    data: { title, content: "The saved text.", category: "procedure", tags: ["drafts"] },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).entry.id as string;
  const kb = new KnowledgePage(page);
  const shell = new HqShell(page);
  const typed = "The saved text.\n\nAn unsaved paragraph typed in the console.";

  for (const [size, viewport] of Object.entries(WIDTHS)) {
    await test.step(size, async () => {
      await page.setViewportSize(viewport);
      await page.goto(`/knowledge/${id}`);
      const tab = (name: "Content" | "Edit" | "History") => kb.tab(name).click();
      await tab("Edit");
      await expect(page).toHaveURL(/[?&]tab=edit\b/);
      await kb.fillEditor({ content: typed });
      await tab("Content");
      await tab("Edit");
      await expect(page.getByLabel("Content (markdown)")).toHaveValue(typed);

      // a console link asks first, and the edit waits as a draft
      if (size === "phone") await page.getByRole("button", { name: "Open menu" }).click();
      await shell.open("Agents");
      await expect(shell.leaveDialog()).toContainText(title);
      await shell.leaveDialog().getByRole("button", { name: "Leave" }).click();
      await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
      // the knowledge base marks the entry and links back to the editor; so does the entry's own page
      await page.goto(`/knowledge?q=${encodeURIComponent(title)}`);
      const waiting = page.getByRole("status").filter({ hasText: "not saved yet" });
      await expect(waiting).toContainText(`your edit of “${title}”`);
      await expect(page.getByTestId("knowledge-row").filter({ hasText: title })).toContainText("Unsaved edit");
      await waiting.getByRole("link", { name: `your edit of “${title}”` }).click();
      await expect(page).toHaveURL(new RegExp(`/knowledge/${id}\\?tab=edit$`));
      await expect(page.getByLabel("Content (markdown)")).toHaveValue(typed);
      await tab("Content");
      await expect(kb.tab("Edit")).toContainText("Unsaved");
      await page.getByRole("button", { name: "Continue editing" }).click();
      await expect(page.getByLabel("Content (markdown)")).toHaveValue(typed);
      // and the editor says so: the restored text is the earlier edit, not the saved version
      await expect(page.getByRole("status").filter({ hasText: "Your unsaved changes from before are back" })).toBeVisible();
      await page.reload();
      await expect(page.getByLabel("Content (markdown)")).toHaveValue(typed);
      // nothing reached the server
      const saved = await (await page.request.get(`/api/v1/knowledge/${id}`, { headers: adminHeaders() })).json();
      expect(saved.entry.content).toBe("The saved text.");
      if (size === "desktop") {
        await page.getByRole("button", { name: "Discard changes" }).click();
        await expect(page.getByLabel("Content (markdown)")).toHaveValue("The saved text.");
        await expect(kb.tab("Edit")).not.toContainText("Unsaved");
        await page.goto(`/knowledge?q=${encodeURIComponent(title)}`);
        await expect(page.getByTestId("knowledge-row").filter({ hasText: title })).toBeVisible();
        await expect(page.getByRole("status").filter({ hasText: "not saved yet" })).toHaveCount(0);
        await expect(page.getByText("Unsaved edit")).toHaveCount(0);
      } else {
        await page.getByRole("button", { name: "Save changes" }).click();
        await expect(kb.notice()).toContainText("Saved as version 2");
        await page.goto(`/knowledge/${id}?tab=edit`);
        await expect(page.getByLabel("Content (markdown)")).toHaveValue(typed);
        // saved: leaving no longer asks
        await page.getByRole("button", { name: "Open menu" }).click();
        await shell.open("Agents");
        await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
      }
    });
  }
});

test("contacts page 120 at a time through the API's cursor; erasing is in a danger zone behind the name typed out", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAsFounder(page);
  // letters only: digits in a contact search also match phone numbers
  const prefix = `Volume ${token().replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)]!)}`;
  const ids = await makeContacts(page.request, await sunriseId(page.request), prefix, 120);

  for (const [size, viewport] of Object.entries(WIDTHS)) {
    await test.step(size, async () => {
      await page.setViewportSize(viewport);
      await page.goto(`/contacts?q=${encodeURIComponent(prefix)}`);
      await expect(page.getByTestId("contact-row")).toHaveCount(50);
      await expect(page.getByTestId("pager-range")).toHaveText("1–50 of 120 contacts");
      const pager = page.getByRole("navigation", { name: "Pages of contacts" });
      await pager.getByRole("button", { name: "Next" }).click();
      await pager.getByRole("button", { name: "Next" }).click();
      await expect(page.getByTestId("pager-range")).toHaveText("101–120 of 120 contacts");
      await page.reload();
      await expect(page.getByTestId("contact-row")).toHaveCount(20);
      if (size === "phone") await noSidewaysScroll(page);

      // the contact page: no erase button among the page's actions; the danger zone at its foot asks for the name
      const name = `${prefix} ${size === "desktop" ? 1 : 2}`;
      await page.goto(`/contacts/${ids[size === "desktop" ? 0 : 1]}`);
      await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
      const zone = page.getByTestId("danger-zone");
      await expect(page.getByRole("button", { name: /erase/i })).toHaveCount(1);
      await expect(zone.getByRole("button", { name: "Opt out and erase…" })).toBeVisible();
      const header = await page.locator("main h1").boundingBox();
      const zoneBox = await zone.boundingBox();
      expect(zoneBox!.y).toBeGreaterThan(header!.y + 200);
      await zone.getByRole("button", { name: "Opt out and erase…" }).click();
      const dialog = page.getByRole("dialog", { name: /Opt out .* and erase their data\?/ });
      const erase = dialog.getByRole("button", { name: "Erase and opt out" });
      await expect(erase).toBeDisabled();
      await dialog.getByRole("textbox").fill("not the name");
      await expect(erase).toBeDisabled();
      await dialog.getByRole("textbox").fill(name);
      if (size === "desktop") {
        await dialog.getByRole("button", { name: "Cancel" }).click();
      } else {
        await erase.click();
        await expect(page.getByText("Contact erased")).toBeVisible();
        await expect(page.getByTestId("danger-zone")).toHaveCount(0);
      }
    });
  }
});

test("decisions are compact rows filtered by outcome in the address; archiving a memory acts at once with Undo", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAsFounder(page);
  const saber = await demoAgentId("Saber");
  const topics = Array.from({ length: 40 }, (_, i) => `Volume decision ${token()} number ${i + 1} on ${["pricing", "staffing", "vans", "rotas", "suppliers"][i % 5]}`);
  // made as the agent makes them, through the API (HQ writes on the agent's behalf with the admin key)
  const made = await inParallel(topics.length, async (i) => {
    const res = await page.request.post(`/api/v1/agents/${saber}/memories`, {
      headers: adminHeaders(),
      data: { tier: "learning", category: "decision", title: topics[i], confidence: 0.8, decisionContext: { reasoning: `Because of case ${i}` } },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).memory.id as string;
  });
  await inParallel(10, async (i) => {
    const res = await page.request.post(`/api/v1/memories/${made[i]}/outcome`, { headers: adminHeaders(), data: { result: `It paid off ${i}`, success: true } });
    expect(res.status(), await res.text()).toBe(201);
  });

  for (const [size, viewport] of Object.entries(WIDTHS)) {
    await test.step(size, async () => {
      await page.setViewportSize(viewport);
      await page.goto(`/agents/${saber}?tab=decisions`);
      const rows = page.getByTestId("decision-row");
      await expect(rows.first()).toBeVisible();
      // compact: a page of rows, each one line of a table (not a card per decision with its reasoning open)
      expect(await page.getByTestId("decision-details").count()).toBe(0);
      if (size === "desktop") expect((await rows.first().boundingBox())!.height).toBeLessThan(80);
      // on a phone the filters beside the search fold behind a button
      if (size === "phone") await page.getByRole("button", { name: "Filters" }).click();
      await page.getByLabel("Outcome").selectOption("worked");
      await expect(page).toHaveURL(/[?&]outcome=worked\b/);
      await expect(rows.filter({ hasText: "Awaiting outcome" })).toHaveCount(0);
      await page.reload();
      if (size === "phone") await page.getByRole("button", { name: "Filters" }).click();
      await expect(page.getByLabel("Outcome")).toHaveValue("worked");
      await rows.filter({ hasText: topics[0]! }).getByRole("button", { name: topics[0]! }).click();
      await expect(page.getByTestId("decision-details")).toContainText("Because of case 0");
      if (size === "phone") await noSidewaysScroll(page);
    });
  }

  await test.step("archive a memory: done at once, with Undo in the toast", async () => {
    await page.setViewportSize(WIDTHS.desktop);
    await page.goto(`/agents/${saber}?tab=memories&q=${encodeURIComponent(topics[5]!)}&category=decision`);
    const row = page.getByTestId("memory-row").filter({ hasText: topics[5]! });
    await row.getByRole("button", { name: "Archive" }).click();
    const toast = page.getByTestId("toast").filter({ hasText: `Archived “${topics[5]}”` });
    await expect(toast).toBeVisible();
    await expect(row).toHaveCount(0);
    await toast.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "is active again" })).toBeVisible();
    await expect(row).toHaveCount(1);
    const memory = await (await page.request.get(`/api/v1/memories/${made[5]}`, { headers: adminHeaders() })).json();
    expect(memory.memory.status).toBe("active");
  });
});

test("escalations page 25 at a time; their tab, the audit log's page and the review filters live in the address", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAsFounder(page);
  // 30 escalations raised by Santos (the demo's field agent) through the API, with his own key
  const santos = await demoAgentId("Santos");
  const key = await page.request.post(`/api/v1/agents/${santos}/keys`, { headers: adminHeaders(), data: { label: "volume" } });
  expect(key.status()).toBe(201);
  const headers = { authorization: `Bearer ${(await key.json()).key}` };
  const topic = token();
  await inParallel(30, async (i) => {
    const res = await page.request.post("/api/v1/escalations", {
      headers,
      data: { question: `Customer ${topic}-${i} asks for a refund on a ${["boiler", "tap", "drain"][i % 3]} repair`, severity: ["low", "medium", "high", "critical"][i % 4] },
    });
    expect(res.status(), await res.text()).toBe(201);
  }, 4);

  await page.goto("/escalations");
  await expect(page.getByTestId("escalation-card")).toHaveCount(25);
  await expect(page.getByTestId("pager-range")).toHaveText(/^1–25 of \d+ escalations$/);
  await expect(page.getByTestId("escalation-card").first()).toContainText("Critical");
  await page.getByRole("tab", { name: /^Resolved/ }).click();
  await expect(page).toHaveURL(/[?&]status=resolved\b/);
  await page.reload();
  await expect(page.getByRole("tab", { name: /^Resolved/ })).toHaveAttribute("aria-selected", "true");
  await page.goBack();
  await expect(page.getByRole("tab", { name: /^Open/ })).toHaveAttribute("aria-selected", "true");

  await page.goto("/audit?page=2");
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  await expect(page.getByTestId("pager-range")).toHaveText(/^51–100 entries$/);

  await page.goto("/review?status=rejected&verdict=review");
  await expect(page.getByLabel("Status")).toHaveValue("rejected");
  await expect(page.getByText(/^No rejected suggestions$|rejected suggestions?, the latest decision first/)).toBeVisible();
});
