import { expect, type Page } from "@playwright/test";

/** /audit: the audit log table with its filters (area, actor, actor name, dates) and CSV export. */
export class AuditLogPage {
  constructor(private readonly page: Page) {}

  async expectOpen() {
    await expect(this.page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  }

  rows(action?: string) {
    const rows = this.page.getByTestId("audit-row");
    return action ? this.page.locator(`[data-testid="audit-row"][data-action="${action}"]`) : rows;
  }

  async filterArea(label: string) {
    await this.page.getByLabel("Area").selectOption({ label });
  }

  async filterActor(label: string) {
    // the actor select (the actor name box is a textbox)
    await this.page.getByRole("combobox", { name: /^Actor/ }).selectOption({ label });
  }

  async filterActorName(name: string) {
    await this.page.getByLabel("Actor name").fill(name);
    await this.page.getByLabel("Actor name").press("Enter");
  }

  async filterDates(from: string, to: string) {
    await this.page.getByLabel("From").fill(from);
    await this.page.getByLabel("To", { exact: true }).fill(to);
  }

  exportLink() {
    return this.page.getByRole("link", { name: "Export CSV" });
  }
}
