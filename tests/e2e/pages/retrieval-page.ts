import { expect, type Page } from "@playwright/test";

/** /retrieval: the Retrieval playground (agent, message, level, triggers, items, context text). */
export class RetrievalPage {
  constructor(private readonly page: Page) {}

  async expectOpen() {
    await expect(this.page).toHaveURL(/\/retrieval$/);
    await expect(this.page.getByRole("heading", { name: "Retrieval playground", level: 1 })).toBeVisible();
  }

  form() {
    return this.page.getByRole("form", { name: "Retrieval playground" });
  }

  /** Picks the agent by id (labels carry kind, role and client after the name). */
  async chooseAgent(agentId: string) {
    await this.form().getByLabel("Agent").selectOption(agentId);
  }

  async ask(message: string) {
    await this.form().getByLabel("Message").fill(message);
    await this.form().getByRole("button", { name: "Retrieve" }).click();
  }

  level() {
    return this.page.getByTestId("retrieval-level");
  }

  triggers() {
    return this.page.getByRole("list", { name: "Triggers" });
  }

  items() {
    return this.page.getByTestId("retrieved-item");
  }

  item(title: string) {
    return this.items().filter({ hasText: title });
  }

  context() {
    return this.page.getByTestId("retrieval-context");
  }

  noContext() {
    return this.page.getByTestId("retrieval-context-empty");
  }

  async assemblePrompt() {
    await this.page.getByRole("button", { name: "Assemble" }).click();
    return this.page.getByTestId("assembled-context");
  }
}
