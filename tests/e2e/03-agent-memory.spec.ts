import { expect, test } from "@playwright/test";
import { adminApi, demoAgentId, signInAsFounder } from "./helpers";
import { AgentMemoryTabs } from "./pages/agent-memory-tabs";

test("edit Sybil's scratchpad, watch the counter, and resolve a conflicting save", async ({ page }) => {
  await signInAsFounder(page);
  const sybil = await demoAgentId("Sybil");
  const tabs = new AgentMemoryTabs(page);
  const hq = adminApi();
  const working = { params: { agentId: sybil, type: "working" } };

  await test.step("the scratchpad opens with the demo content and its character count", async () => {
    await tabs.open(sybil, "scratchpad");
    await expect(page.getByRole("tab", { name: "Scratchpad", selected: true })).toBeVisible();
    await expect(tabs.scratchpad()).toHaveValue(/Shared knowledge base rollout/);
    await expect(tabs.counter()).toContainText("/ 2,000 characters");
    await expect(tabs.saveButton()).toBeDisabled();
  });

  const mine = "## Current task\nE2E: edited from the console";
  await test.step("typing updates the counter live; past 2000 characters saving is refused", async () => {
    await tabs.scratchpad().fill("x".repeat(2001));
    await expect(tabs.counter()).toHaveText("2,001 / 2,000 characters — 1 over the limit");
    await expect(tabs.saveButton()).toBeDisabled();
    await tabs.scratchpad().fill(mine);
    await expect(tabs.counter()).toHaveText(`${mine.length} / 2,000 characters`);
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await expect(tabs.saveButton()).toBeEnabled();
  });

  const theirs = "## Current task\nChanged underneath by another session";
  let versionBefore = 0;
  await test.step("another session saves the scratchpad through the API", async () => {
    versionBefore = (await hq.documents.get(working)).version;
    const put = await hq.documents.put({ ...working, body: { content: theirs, expectedVersion: versionBefore } });
    expect(put.version).toBe(versionBefore + 1);
  });

  await test.step("saving shows the conflict dialog with what differs", async () => {
    await tabs.saveButton().click();
    const dialog = tabs.conflictDialog();
    await expect(dialog).toBeVisible();
    await expect(tabs.conflictAdded()).toContainText("E2E: edited from the console");
    await expect(tabs.conflictRemoved()).toContainText("Changed underneath by another session");
    await expect(dialog).toContainText(`only in version ${versionBefore + 1}`);
    // the save was refused: the server still holds the other session's text
    expect((await hq.documents.get(working)).content).toBe(theirs);
  });

  await test.step("overwriting is a deliberate second step that saves mine on top of theirs", async () => {
    await tabs.conflictDialog().getByRole("button", { name: "Overwrite with mine…" }).click();
    await expect(tabs.conflictDialog().getByRole("alert")).toContainText(`replaces version ${versionBefore + 1}`);
    await tabs.conflictDialog().getByRole("button", { name: `Overwrite version ${versionBefore + 1}` }).click();
    await expect(tabs.conflictDialog()).toBeHidden();
    await tabs.expectSaved();
    const saved = await hq.documents.get(working);
    expect(saved).toMatchObject({ content: mine, version: versionBefore + 2 });
  });

  await test.step("the other memory tabs show the demo's SOUL, memories and a scored decision", async () => {
    await tabs.open(sybil, "soul");
    await expect(page.getByRole("textbox", { name: "SOUL" })).toHaveValue(/SYBIL — Research and strategy lead/);
    await tabs.open(sybil, "memories");
    await expect(page.getByRole("button", { name: "Review the shared-memory schema with Bridget" })).toBeVisible();
    await page.getByLabel("Tier").selectOption("core");
    await expect(page.getByRole("button", { name: "Time is never an issue for AI agents" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Review the shared-memory schema with Bridget" })).toBeHidden();
    const saber = await demoAgentId("Saber");
    await tabs.open(saber, "decisions");
    await expect(page.getByTestId("decision-row").filter({ hasText: "Short BTC based on funding rate spike" })).toContainText("Worked");
  });
});
