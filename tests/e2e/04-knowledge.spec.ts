import { expect, test } from "@playwright/test";
import { adminHeaders, signInAsFounder, unique } from "./helpers";
import { KnowledgePage } from "./pages/knowledge-page";

test("a curator creates an entry, edits it, sees the diff, restores the first version and finds it by search", async ({ page }) => {
  await test.step("the founder invites a curator, who signs in", async () => {
    await signInAsFounder(page);
    const email = `${unique("curator").replace(/\W+/g, "-")}@memoryhq.test`;
    const invite = await page.request.post("/api/v1/hq-users", { headers: adminHeaders(), data: { email, role: "curator", name: "Casey Curator" } });
    expect(invite.status(), await invite.text()).toBe(201);
    const accepted = await page.request.post("/api/v1/auth/accept-invite", {
      data: { token: (await invite.json()).inviteToken, password: "curator passphrase 123" },
    });
    expect(accepted.status()).toBe(200);
    const session = await (await page.request.get("/api/v1/auth/session")).json();
    expect(session.user).toMatchObject({ email, role: "curator" });
  });

  // a word no other entry contains, so the search can only find this one
  const token = `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const title = `Refund hand-off ${token}`;
  const first = `First version: log the ${token} refund request and hand it to HQ.`;
  const second = `Second version: log the ${token} refund request, confirm the order number, then escalate to Sam.`;
  const kb = new KnowledgePage(page);

  await test.step("create", async () => {
    await kb.open();
    await kb.create({ title, category: "Procedure", tags: "refunds, e2e", content: first });
    await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
    await expect(kb.content()).toContainText(first);
  });

  await test.step("edit", async () => {
    await kb.edit(second);
    await expect(kb.notice()).toContainText("Saved as version 2");
    await expect(kb.content()).toContainText(second);
  });

  await test.step("the history shows what changed", async () => {
    await kb.tab("History").click();
    await expect(kb.version(2)).toHaveAttribute("aria-pressed", "true");
    await expect(kb.version(1)).toBeVisible();
    await expect(kb.diff().getByTestId("diff-removed")).toContainText("First version");
    await expect(kb.diff().getByTestId("diff-added")).toContainText("confirm the order number, then escalate to Sam.");
  });

  await test.step("restore the first version", async () => {
    await kb.restore(1);
    await expect(kb.notice()).toContainText("Version 1 restored as version 3");
    await expect(kb.version(3)).toContainText("Current");
    await kb.tab("Content").click();
    await expect(kb.content()).toContainText(first);
    await expect(kb.content()).not.toContainText("Second version");
  });

  await test.step("find it with the search box", async () => {
    await kb.open();
    await kb.search(`${token} refund`);
    const row = kb.row(title);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("v3");
    await expect(row).toContainText("Procedure");
    await row.getByRole("link", { name: title }).click();
    await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  });
});
