import { expect, type Page } from "@playwright/test";

/** /audit: the audit log table with its filters. */
export class AuditLogPage {
  constructor(private readonly page: Page) {}

  async expectOpen() {
    await expect(this.page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  }

  rows(action?: string) {
    const rows = this.page.getByTestId("audit-row");
    return action ? this.page.locator(`[data-testid="audit-row"][data-action="${action}"]`) : rows;
  }

  async filter(prefix: string) {
    await this.page.getByLabel("Filter by action prefix").fill(prefix);
    await this.page.getByRole("button", { name: "Filter", exact: true }).click();
  }
}
