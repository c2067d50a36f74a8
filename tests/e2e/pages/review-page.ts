import { expect, type Page } from "@playwright/test";

/** /review: the Review queue of memory suggestions. */
export class ReviewQueuePage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/review");
    await this.expectOpen();
  }

  async expectOpen() {
    await expect(this.page.getByRole("heading", { name: "Review queue", level: 1 })).toBeVisible();
  }

  item(id: string) {
    return this.page.locator(`[data-testid="suggestion"][data-suggestion-id="${id}"]`);
  }

  /** Selects a suggestion (as j/k would) by clicking its proposed value. */
  async select(id: string) {
    await this.item(id).getByTestId("proposed-value").click();
    await expect(this.item(id)).toHaveAttribute("aria-current", "true");
  }

  async approveWithKeyboard(id: string) {
    await this.select(id);
    await this.page.keyboard.press("a");
  }

  /** The current suggestion in full (the pane beside the list on wide screens). */
  detail() {
    return this.page.getByTestId("detail-pane");
  }

  async reject(id: string, reason: string) {
    await this.select(id);
    await this.detail().getByRole("button", { name: "Reject" }).click();
    const dialog = this.page.getByRole("dialog", { name: "Reject suggestion" });
    await dialog.getByLabel("Reason").fill(reason);
    await dialog.getByRole("button", { name: "Reject" }).click();
    await expect(dialog).toBeHidden();
  }

  /** The toast of a decision (several may be in view: one per decision while it is held). */
  notice(text: string | RegExp = /Approved|Rejected|Kept/) {
    return this.page.getByTestId("toast").filter({ hasText: text });
  }
}
