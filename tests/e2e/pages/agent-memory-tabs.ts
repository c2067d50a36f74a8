import { expect, type Page } from "@playwright/test";

/** The memory tabs of /agents/[id]: SOUL, Scratchpad (with its counter and conflict dialog), Memories, Decisions. */
export class AgentMemoryTabs {
  constructor(private readonly page: Page) {}

  async open(agentId: string, tab: "soul" | "scratchpad" | "daily" | "memories" | "decisions" | "interactions") {
    await this.page.goto(`/agents/${agentId}?tab=${tab}`);
  }

  scratchpad() {
    return this.page.getByRole("textbox", { name: "Scratchpad" });
  }

  counter() {
    return this.page.getByTestId("char-counter");
  }

  saveButton() {
    return this.page.getByRole("button", { name: "Save", exact: true });
  }

  conflictDialog() {
    return this.page.getByRole("dialog", { name: "Someone else saved first" });
  }

  async expectSaved() {
    await expect(this.page.getByText("Saved", { exact: true })).toBeVisible();
  }
}
