import { expect, type Page } from "@playwright/test";

/** /setup: the first-admin form, shown only on a fresh HQ. */
export class SetupPage {
  constructor(private readonly page: Page) {}

  async expectOpen() {
    await expect(this.page).toHaveURL(/\/setup$/);
    await expect(this.page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
  }

  async createAdmin(user: { name: string; email: string; password: string }) {
    await this.page.getByLabel("Your name").fill(user.name);
    await this.page.getByLabel("Email").fill(user.email);
    await this.page.getByLabel("Password", { exact: true }).fill(user.password);
    await this.page.getByLabel("Confirm password").fill(user.password);
    await this.page.getByRole("button", { name: "Create admin account" }).click();
  }
}

/** /login */
export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/login");
  }

  async expectOpen() {
    await expect(this.page).toHaveURL(/\/login$/);
    await expect(this.page.getByRole("heading", { name: "Sign in to Memory HQ" })).toBeVisible();
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  error() {
    return this.page.locator("form").getByRole("alert");
  }
}
