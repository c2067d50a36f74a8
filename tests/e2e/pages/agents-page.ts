import { expect, type Page } from "@playwright/test";

/** /agents: the agents table, the clients card and the "New agent" dialog. */
export class AgentsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/agents");
  }

  async expectOpen() {
    await expect(this.page).toHaveURL(/\/agents$/);
    await expect(this.page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
  }

  rows() {
    return this.page.getByTestId("agent-row");
  }

  row(name: string) {
    return this.rows().filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /** Opens the dialog, fills it and submits; the console then shows the new agent's page. */
  async createAgent(agent: { name: string; kind: "internal" | "field"; role: string; client?: string }) {
    await this.page.getByRole("button", { name: "New agent" }).first().click();
    const dialog = this.page.getByRole("dialog", { name: "New agent" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Name").fill(agent.name);
    await dialog.getByLabel("Kind").selectOption(agent.kind);
    await dialog.getByLabel("Role").selectOption(agent.role);
    if (agent.kind === "field") {
      // field agents can only read the knowledge base: the control is locked to "Read"
      const kb = dialog.getByLabel("Knowledge base access");
      await expect(kb).toBeDisabled();
      await expect(kb).toHaveValue("read");
      await dialog.getByLabel("Client").selectOption({ label: agent.client! });
    }
    await dialog.getByRole("button", { name: "Create agent" }).click();
    await expect(dialog).toBeHidden();
  }
}
