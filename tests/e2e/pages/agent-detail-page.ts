import { expect, type Page } from "@playwright/test";

/** /agents/[id]: identity header, tabs, the details card and the API keys card. */
export class AgentDetailPage {
  constructor(private readonly page: Page) {}

  async expectOpen(name: string) {
    await expect(this.page).toHaveURL(/\/agents\/[0-9a-f-]{36}/);
    await expect(this.page.getByRole("heading", { name, level: 1 })).toBeVisible();
  }

  /** the agent id, from the URL */
  id(): string {
    const m = /\/agents\/([0-9a-f-]{36})/.exec(this.page.url());
    if (!m) throw new Error(`not on an agent page: ${this.page.url()}`);
    return m[1]!;
  }

  /** the Limits card: the agent's request limits in force */
  limits() {
    return this.page.getByTestId("agent-limits");
  }

  /** Sets the agent's own limits in the Limits dialog (an empty value returns one to the default). */
  async setLimits(values: Partial<Record<"Requests per second" | "Burst" | "Waiting at once", string>>) {
    await this.limits().getByRole("button", { name: "Change limits" }).click();
    const dialog = this.page.getByRole("dialog");
    for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label).fill(value);
    await dialog.getByRole("button", { name: "Save limits" }).click();
    await expect(dialog).toBeHidden();
  }

  keyRows() {
    return this.page.getByTestId("key-row");
  }

  /** Issues a key through the dialog and returns the clear key it shows once. */
  async issueKey(label: string): Promise<string> {
    await this.page.getByRole("button", { name: "Issue key" }).first().click();
    const dialog = this.page.getByRole("dialog");
    await dialog.getByLabel("Label").fill(label);
    await dialog.getByRole("button", { name: "Issue key" }).click();
    const keyText = dialog.getByTestId("new-key");
    await expect(keyText).toBeVisible();
    await expect(dialog.getByText("This key won't be shown again")).toBeVisible();
    const key = (await keyText.textContent())?.trim() ?? "";
    await dialog.getByRole("button", { name: "I've copied the key" }).click();
    await expect(dialog).toBeHidden();
    return key;
  }

  /** Issues a key and leaves the dialog open on the snippets; returns the dialog and the key. */
  async issueKeyAndKeepDialog(label: string) {
    await this.page.getByRole("button", { name: "Issue key" }).first().click();
    const dialog = this.page.getByRole("dialog");
    await dialog.getByLabel("Label").fill(label);
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(dialog.getByTestId("new-key")).toBeVisible();
    const key = (await dialog.getByTestId("new-key").textContent())?.trim() ?? "";
    return { dialog, key };
  }

  keyRow(label: string) {
    return this.keyRows().filter({ hasText: label });
  }

  /** Revoking cannot be undone: the dialog wants the key's prefix typed out before it acts. */
  async revokeKey(label: string) {
    const row = this.keyRow(label);
    const prefix = await row.getAttribute("data-key-prefix");
    await row.getByRole("button", { name: "Revoke" }).click();
    const dialog = this.page.getByRole("dialog", { name: "Revoke this key?" });
    await expect(dialog.getByRole("button", { name: "Revoke key" })).toBeDisabled();
    await dialog.getByRole("textbox").fill(prefix!);
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog).toBeHidden();
  }
}
