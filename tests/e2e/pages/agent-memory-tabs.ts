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

  /** lines of the conflict diff only in the saved version / only in the unsaved text */
  conflictRemoved() {
    return this.conflictDialog().getByTestId("diff-removed");
  }

  conflictAdded() {
    return this.conflictDialog().getByTestId("diff-added");
  }

  soul() {
    return this.page.getByRole("textbox", { name: "SOUL" });
  }

  tab(name: string) {
    return this.page.getByRole("tab", { name, exact: true });
  }

  async expectSaved() {
    await expect(this.page.getByText("Saved", { exact: true })).toBeVisible();
  }
}
