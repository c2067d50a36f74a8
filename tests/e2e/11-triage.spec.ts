import { expect, test, type Page } from "@playwright/test";
import { adminHeaders, signInAsFounder } from "./helpers";
import { makeContacts, makePendingSuggestions, sunriseId } from "./volume";

// The review queue at team volume: 300 pending suggestions made through the API open on their first
// page, are worked from the keyboard (x, Shift+j, a) with one Undo for twenty approvals, and keep
// their filters and page in the address. At desktop and phone width.

const token = () => Date.now().toString(36) + Math.random().toString(36).slice(2, 5);
const row = (page: Page, key: string) => page.locator(`[data-testid="suggestion"][data-key="${key}"]`);

async function pendingCount(page: Page, q: string) {
  const res = await page.request.get(`/api/v1/suggestions?status=pending&q=${encodeURIComponent(q)}&limit=1`, { headers: adminHeaders() });
  return (await res.json()).total as number;
}

test("300 pending suggestions: the first page opens windowed, 20 are approved from the keyboard with one Undo, then sent", async ({ page }) => {
  test.setTimeout(240_000);
  await signInAsFounder(page);
  const prefix = `triage_${token()}`;
  const contacts = await makeContacts(page.request, await sunriseId(page.request), `Triage ${prefix}`, 30);
  await makePendingSuggestions(page.request, contacts, prefix, 300);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/review?q=${prefix}`);
  await test.step("the first row is on screen, the page is windowed, the threshold is explained once", async () => {
    await expect(row(page, `${prefix}_1`)).toBeVisible();
    await expect(page.getByTestId("review-count")).toHaveText("300 pending suggestions, oldest first");
    await expect(page.getByTestId("pager-range")).toHaveText("1–100 of 300 suggestions");
    // a page of 100 rows, but only those near the screen are in the document
    expect(await page.getByTestId("suggestion").count()).toBeLessThan(60);
    await expect(page.getByTestId("threshold-note")).toHaveCount(1);
    await expect(page.getByText(/is below the auto-approve threshold/)).toHaveCount(0);
    await expect(page.getByTestId("detail-pane")).toContainText(`${prefix}_1`);
  });

  await test.step("x and Shift+j tick twenty rows; a approves them; Undo brings all twenty back and sends nothing", async () => {
    await page.keyboard.press("x");
    for (let i = 0; i < 19; i++) await page.keyboard.press("Shift+J");
    await expect(page.getByRole("region", { name: "Bulk actions" })).toContainText("20 suggestions selected");
    await page.keyboard.press("a");
    const toast = page.getByTestId("toast").filter({ hasText: "Approved 20 suggestions" });
    await expect(toast).toBeVisible();
    await expect(row(page, `${prefix}_1`)).toHaveCount(0);
    await expect(row(page, `${prefix}_21`)).toBeVisible();
    await expect(page.getByTestId("review-count")).toHaveText("280 pending suggestions, oldest first");
    await toast.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByTestId("review-count")).toHaveText("300 pending suggestions, oldest first");
    await expect(row(page, `${prefix}_20`)).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(row(page, `${prefix}_1`)).toBeVisible();
    await page.waitForTimeout(7_000);
    expect(await pendingCount(page, prefix)).toBe(300);
  });

  await test.step("approved again, the twenty are sent once the grace window ends", async () => {
    await row(page, `${prefix}_1`).click();
    await page.keyboard.press("x");
    for (let i = 0; i < 19; i++) await page.keyboard.press("Shift+J");
    await page.keyboard.press("a");
    await expect(page.getByTestId("toast").filter({ hasText: "Approved 20 suggestions" })).toBeVisible();
    await expect.poll(() => pendingCount(page, prefix), { timeout: 20_000 }).toBe(280);
    await expect(page.getByTestId("review-count")).toHaveText("280 pending suggestions, oldest first");
  });

  await test.step("the keys still work once rows are ticked with the mouse (a checkbox has the focus)", async () => {
    await row(page, `${prefix}_21`).getByRole("checkbox").click();
    await row(page, `${prefix}_22`).getByRole("checkbox").click({ modifiers: ["Shift"] });
    const bulk = page.getByRole("region", { name: "Bulk actions" });
    await expect(bulk).toContainText("2 suggestions selected");
    await page.keyboard.press("r");
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await page.keyboard.press("Escape");
    await expect(page.getByText("2 suggestions selected")).toHaveCount(0);
  });

  await test.step("the page and the filters are in the address: Next, reload, Back", async () => {
    // pressed from the keyboard: at the foot of a windowed page the rows above are still being
    // measured as they come into view, so a click at Next's position could land on a row instead
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await page.getByRole("navigation", { name: "Pages of suggestions" }).getByRole("button", { name: "Next" }).press("Enter");
    await expect(page).toHaveURL(/[?&]page=2\b/);
    await expect(row(page, `${prefix}_121`)).toBeVisible();
    await page.reload();
    await expect(row(page, `${prefix}_121`)).toBeVisible();
    await expect(page.getByTestId("pager-range")).toHaveText("101–200 of 280 suggestions");
    await page.goBack();
    await expect(page.getByTestId("pager-range")).toHaveText("1–100 of 280 suggestions");
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(row(page, `${prefix}_21`)).toBeVisible();
    await page.getByLabel("Status").selectOption("approved");
    await expect(page).toHaveURL(/[?&]status=approved\b/);
    await expect(page.getByTestId("review-count")).toHaveText("20 approved suggestions, the latest decision first");
    await page.reload();
    await expect(page.getByLabel("Status")).toHaveValue("approved");
  });
});

test("on a phone the queue is compact rows; the current one opens in place, and its approval has Undo", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsFounder(page);
  const prefix = `phone_${token()}`;
  const contacts = await makeContacts(page.request, await sunriseId(page.request), `Phone ${prefix}`, 5);
  await makePendingSuggestions(page.request, contacts, prefix, 40);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/review?q=${prefix}`);
  await expect(row(page, `${prefix}_1`)).toBeVisible();
  await expect(page.getByLabel("Keyboard shortcuts")).toBeHidden();
  await row(page, `${prefix}_2`).click();
  const details = row(page, `${prefix}_2`).getByTestId("suggestion-detail");
  await expect(details).toBeVisible();
  await details.getByRole("button", { name: "Approve", exact: true }).click();
  const toast = page.getByTestId("toast").filter({ hasText: `Approved “${prefix}_2”` });
  await expect(toast).toBeVisible();
  await expect(row(page, `${prefix}_2`)).toHaveCount(0);
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(row(page, `${prefix}_2`)).toBeVisible();
  const box = await row(page, `${prefix}_1`).boundingBox();
  expect(box!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("a page whose every row is decided says so while the decisions wait to be sent, not that nothing waits", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsFounder(page);
  const prefix = `held_${token()}`;
  const contacts = await makeContacts(page.request, await sunriseId(page.request), `Held ${prefix}`, 3);
  await makePendingSuggestions(page.request, contacts, prefix, 3);
  await page.goto(`/review?q=${prefix}`);
  await expect(row(page, `${prefix}_1`)).toBeVisible();
  await page.keyboard.press("x");
  await page.keyboard.press("Shift+J");
  await page.keyboard.press("Shift+J");
  await page.keyboard.press("a");
  await expect(page.getByText("All 3 on this page are decided")).toBeVisible();
  await expect(page.getByText("Nothing waiting here")).toHaveCount(0);
  // once sent, the filter has nothing left
  await expect.poll(() => pendingCount(page, prefix), { timeout: 20_000 }).toBe(0);
  await expect(page.getByText("Nothing waiting here")).toBeVisible({ timeout: 15_000 });
});
