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

test("a stale edit keeps the typed text, explains the conflict and merges both edits; fixed fields lose their errors", async ({ page }) => {
  await signInAsFounder(page);
  const token = `zc${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const title = `Conflict drill ${token}`;
  const base = ["Step one: greet the caller.", "Step two: confirm the address.", "Step three: book the visit.", "Step four: send the confirmation."].join("\n");
  const created = await page.request.post("/api/v1/knowledge", { headers: adminHeaders(), data: { title, content: base, category: "procedure" } });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).entry.id as string;
  const kb = new KnowledgePage(page);

  await page.goto(`/knowledge/${id}`);
  // the first load of an entry page can be slow on a busy machine
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible({ timeout: 30_000 });
  await kb.tab("Edit").click();
  const form = page.getByRole("form", { name: "Knowledge entry" });

  await test.step("a refused field shows its error beside the field only, and the error goes once the field is fixed", async () => {
    await form.getByLabel("Title").fill("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(form.getByText("title is required")).toBeVisible();
    await expect(form.getByText("Not saved")).toHaveCount(0);
    await form.getByLabel("Title").fill(title);
    await expect(form.getByText("title is required")).toHaveCount(0);
  });

  const mine = base.replace("Step four: send the confirmation.", "Step four: send the confirmation by SMS and email.");
  await kb.fillEditor({ content: mine });

  await test.step("someone else saves meanwhile (through the API)", async () => {
    const theirs = await page.request.patch(`/api/v1/knowledge/${id}`, {
      headers: adminHeaders(),
      data: { content: base.replace("Step one: greet the caller.", "Step one: greet the caller by name."), expectedVersion: 1 },
    });
    expect(theirs.status(), await theirs.text()).toBe(200);
  });

  await test.step("saving shows the conflict dialog; the typed text is kept", async () => {
    await page.getByRole("button", { name: "Save changes" }).click();
    const dialog = page.getByRole("dialog", { name: "Someone else saved first" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Version 2 was saved by");
    await expect(dialog.getByTestId("conflict-diff")).toContainText("by SMS and email");
    await expect(dialog.getByTestId("conflict-diff")).toContainText("greet the caller by name");
    // the editor underneath still holds what was typed (the entry's refetch did not replace it)
    await expect(form.getByLabel("Content (markdown)")).toHaveValue(mine);
    await dialog.getByRole("button", { name: "Merge both" }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step("the merge holds both edits; saving makes version 3", async () => {
    await expect(page.getByRole("status").filter({ hasText: "merged into version 2" })).toBeVisible();
    const merged = await form.getByLabel("Content (markdown)").inputValue();
    expect(merged).toContain("greet the caller by name");
    expect(merged).toContain("by SMS and email");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(kb.notice()).toContainText("Saved as version 3");
    await expect(kb.content()).toContainText("greet the caller by name");
    await expect(kb.content()).toContainText("by SMS and email");
  });
});

test("a misspelt search finds the entry with a 'did you mean', and the search is in the address", async ({ page }) => {
  await signInAsFounder(page);
  const kb = new KnowledgePage(page);
  await kb.open();
  await kb.search("escalaton severty");
  await expect(page).toHaveURL(/[?&]q=escalaton(\+|%20)severty/);
  await expect(page.getByTestId("did-you-mean")).toContainText("escalation severity");
  await expect(kb.row("Escalation severity levels")).toHaveCount(1);
  // the address opens the same search
  await page.goto("/knowledge?q=escalaton%20severty");
  await expect(page.getByRole("searchbox", { name: "Search the knowledge base" })).toHaveValue("escalaton severty");
  await expect(kb.row("Escalation severity levels")).toHaveCount(1);
});

test("markdown files are checked, imported and reported; the dialog cannot be closed while entries are stored", async ({ page }) => {
  await signInAsFounder(page);
  const title = unique("Imported ladder safety");
  await page.goto("/knowledge");
  await page.getByRole("button", { name: "Import markdown" }).click();
  const dialog = page.getByRole("dialog", { name: "Import markdown files" });
  await dialog.getByTestId("knowledge-import-files").setInputFiles([
    { name: "ladder.md", mimeType: "text/markdown", buffer: Buffer.from(`---\ntitle: ${title}\ncategory: procedure\n---\nFoot the ladder; three points of contact.\n`) },
    { name: "untitled.md", mimeType: "text/markdown", buffer: Buffer.from("No title, no heading, no category.\n") },
    // UTF-16 without a byte-order mark (with one, the browser reads it right): its NUL bytes would refuse
    // the whole import, so it is left out by name
    { name: "windows.md", mimeType: "text/markdown", buffer: Buffer.from("# Windows notes\n", "utf16le") },
  ]);
  await expect(dialog.getByTestId("knowledge-import-report")).toContainText("Check only: 1 ready to import, 0 duplicates, 1 refused");
  await expect(dialog.getByRole("status").filter({ hasText: "Left out: 1 file is not UTF-8 text" })).toContainText("windows.md");

  // hold the import that stores entries, so its running state can be seen
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/v1/knowledge/import", async (route) => {
    if (!(route.request().postDataJSON() as { dryRun?: boolean }).dryRun) await held;
    await route.continue();
  });
  await dialog.getByRole("button", { name: "Import 1 ready file" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Importing 1 file… this dialog stays open until the report is in" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close" })).toHaveCount(0);
  // nothing in it can start another check meanwhile
  await expect(dialog.getByLabel("Category for files that don't name one")).toBeDisabled();
  await expect(dialog.getByTestId("knowledge-import-files")).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  release();

  await expect(dialog.getByTestId("knowledge-import-report")).toContainText("1 created, 0 skipped, 1 refused");
  await expect(dialog.getByRole("button", { name: "Close" })).toBeVisible();
  await dialog.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/knowledge\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
});
