import { expect, test } from "@playwright/test";
import { adminApi, signInAsFounder, unique } from "./helpers";
import { AgentDetailPage } from "./pages/agent-detail-page";

test("a new key comes with ready snippets for this server and a working test; the Docs page has the API reference", async ({ page, baseURL }) => {
  // three snippet tabs and the Docs page's three connect blocks: longer than the default on a loaded machine
  test.setTimeout(180_000);
  await signInAsFounder(page);
  const hq = adminApi();
  const { agent } = await hq.agents.create({ body: { name: unique("Docs Agent"), kind: "internal", role: "specialist" } });

  await test.step("the key dialog shows curl, MCP and TypeScript snippets with the real base URL and key", async () => {
    await page.goto(`/agents/${agent.id}`);
    const detail = new AgentDetailPage(page);
    const { dialog, key } = await detail.issueKeyAndKeepDialog("docs");
    expect(key).toMatch(/^mhq_/);
    await expect(dialog.getByTestId("snippet-curl")).toContainText(`Authorization: Bearer ${key}`);
    await expect(dialog.getByTestId("snippet-curl")).toContainText(`${baseURL}/api/v1/agents/me`);
    await dialog.getByRole("tab", { name: "MCP (stdio)" }).click();
    await expect(dialog.getByTestId("snippet-mcp")).toContainText(`"MEMORY_HQ_URL": "${baseURL}"`);
    await expect(dialog.getByTestId("snippet-mcp")).toContainText(`"MEMORY_HQ_KEY": "${key}"`);
    // the stdio bridge comes from the package this server hands out, never from a registry
    await expect(dialog.getByTestId("snippet-mcp")).toContainText(`"${baseURL}/downloads/memory-hq-client.tgz"`);
    await dialog.getByRole("tab", { name: "MCP (HTTP)" }).click();
    await expect(dialog.getByTestId("snippet-mcp-http")).toContainText(`"url": "${baseURL}/api/mcp"`);
    await expect(dialog.getByTestId("snippet-mcp-http")).toContainText(`"Authorization": "Bearer ${key}"`);
    await dialog.getByRole("tab", { name: "TypeScript" }).click();
    await expect(dialog.getByTestId("snippet-ts")).toContainText(`npm install ${baseURL}/downloads/memory-hq-client.tgz`);
    await expect(dialog.getByTestId("snippet-ts")).toContainText(`from "memory-hq-client"`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: "test-results/docs-key-dialog.png" });

    await dialog.getByRole("button", { name: "Test this key" }).click();
    await expect(dialog.getByRole("status").filter({ hasText: "The key works" })).toContainText(agent.name);
    await dialog.getByRole("button", { name: "I've copied the key" }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step("the Docs page: getting started and the reference generated from the contracts", async () => {
    await page.getByRole("link", { name: "Docs" }).click();
    await expect(page.getByRole("heading", { name: "Docs", level: 1 })).toBeVisible();
    await expect(page.getByText(`${baseURL}/api/mcp`).first()).toBeVisible();
    await expect(page.getByTestId("docs-install")).toHaveText(`npm install ${baseURL}/downloads/memory-hq-client.tgz`);
    await expect(page.getByTestId("docs-mcp-stdio")).toContainText(`"${baseURL}/downloads/memory-hq-client.tgz"`);
    await expect(page.getByTestId("docs-mcp-http")).toContainText(`"url": "${baseURL}/api/mcp"`);
    // nothing offered that does not exist outside this repository
    await expect(page.getByText(/memory-hq\/sdk|"args": \[\s*"memory-hq-mcp"/)).toHaveCount(0);
    // grouped by area, with a table of contents; the console's sign-in internals come last
    const contents = page.getByTestId("api-contents").getByRole("listitem");
    await expect(contents.first()).toContainText("Memories");
    await expect(contents.last()).toContainText("Sign-in and HQ users");
    await expect(page.getByTestId("api-group").last()).toHaveAttribute("id", "api-sign-in-and-hq-users");
    const endpoints = page.getByTestId("api-reference");
    await expect(endpoints.getByText("/api/v1/retrieve", { exact: true })).toBeVisible();
    await page.getByLabel("Filter endpoints").fill("memories/{id}/outcome");
    await expect(endpoints.getByRole("listitem")).toHaveCount(1);
    await endpoints.getByText("/api/v1/memories/{id}/outcome").click();
    await expect(endpoints.getByText("Response 201")).toBeVisible();
    // who may call, in words rather than a permission id, and the rule that refuses the call
    await expect(endpoints.getByTestId("who-may-call")).toContainText(/agents with their own key/i);
    await expect(endpoints.getByTestId("who-may-call")).not.toContainText("memories.write");
    await expect(endpoints.getByTestId("operation-rules")).toContainText("outcomes are recorded on decisions only");
    await expect(endpoints.getByRole("cell", { name: /^result/ })).toBeVisible();

    // a memory write: each field with its description, allowed values and limits; the tier rule above the list
    await expect(page.getByRole("region", { name: "Rules callers trip over" })).toContainText("A decision is a learning memory");
    await page.getByLabel("Filter endpoints").fill("memories.write");
    await expect(endpoints.getByRole("listitem")).toHaveCount(1);
    await endpoints.getByText("/api/v1/agents/{agentId}/memories").click();
    const category = endpoints.getByRole("row", { name: /^category/ });
    await expect(category).toContainText("must belong to the tier");
    await expect(category).toContainText("learning: decision");
    await expect(endpoints.getByRole("row", { name: /^confidence/ })).toContainText("0.4–1");
    await expect(endpoints.getByTestId("who-may-call")).toContainText("HQ admins");
    await page.screenshot({ path: "test-results/docs-page.png", fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "test-results/docs-page-mobile.png" });
    // nothing on a phone is wider than the screen: the page never scrolls sideways
    await page.getByLabel("Filter endpoints").fill("");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
