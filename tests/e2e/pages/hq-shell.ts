import { expect, type Page } from "@playwright/test";

/** The signed-in console around every page: sidebar navigation and the top bar. */
export class HqShell {
  constructor(private readonly page: Page) {}

  nav() {
    return this.page.getByRole("navigation", { name: "Main" });
  }

  async open(section: "Agents" | "Locked constants" | "Audit" | "Users" | (string & {})) {
    // a section's link may carry a live count after its label ("Escalations 3 open")
    const label = section.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await this.nav().getByRole("link", { name: new RegExp(`^${label}(\\s|$)`) }).click();
  }

  /** The question a console link asks before leaving a page with an unsaved edit. */
  leaveDialog() {
    return this.page.getByRole("dialog", { name: "Leave with unsaved changes?" });
  }

  async expectSignedInAs(name: string, role: string) {
    await expect(this.page.getByTestId("current-user-name")).toHaveText(name);
    await expect(this.page.getByRole("banner").getByText(role, { exact: true })).toBeVisible();
  }

  async signOut() {
    await this.page.getByRole("button", { name: "Sign out" }).click();
  }
}
