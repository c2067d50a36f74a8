import { expect, type Page } from "@playwright/test";

/** /escalations: open and resolved escalations, and the resolve dialog with its knowledge form. */
export class EscalationsPage {
  constructor(private readonly page: Page) {}

  async expectOpen() {
    await expect(this.page.getByRole("heading", { name: "Escalations", level: 1 })).toBeVisible();
  }

  async showTab(name: "Open" | "Resolved") {
    await this.page.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
  }

  card(question: string) {
    return this.page.getByTestId("escalation-card").filter({ hasText: question });
  }

  /** Resolves through the dialog with the fix typed as the resolution; the new entry's content follows it. */
  async resolve(question: string, resolution: string) {
    await this.card(question).getByRole("button", { name: "Resolve" }).click();
    const dialog = this.page.getByRole("dialog");
    await dialog.getByLabel("Resolution").fill(resolution);
    await expect(dialog.getByLabel("Title")).toHaveValue(question);
    await expect(dialog.getByLabel("Content")).toHaveValue(`**Problem:** ${question}\n\n**Fix:** ${resolution}`);
    await dialog.getByRole("button", { name: "Resolve" }).click();
    await expect(dialog).toBeHidden();
  }
}

/** /outcomes: decisions awaiting outcomes, success rates, recent outcomes. */
export class OutcomesPage {
  constructor(private readonly page: Page) {}

  async expectOpen() {
    await expect(this.page.getByRole("heading", { name: "Outcomes", level: 1 })).toBeVisible();
  }

  awaiting() {
    return this.page.getByRole("table", { name: "Decisions awaiting outcomes" });
  }

  rates() {
    return this.page.getByRole("table", { name: "Success rate per agent and category" });
  }
}

/** The Reports tab of an agent's page. */
export class ReportsTab {
  constructor(private readonly page: Page) {}

  async open(agentId: string) {
    await this.page.goto(`/agents/${agentId}?tab=reports`);
    await expect(this.page.getByLabel("Report date")).toBeVisible();
  }

  async pick(date: string) {
    await this.page.getByLabel("Report date").selectOption(date);
  }

  report() {
    return this.page.getByTestId("agent-report");
  }
}

/** The Dashboard's Nightly consolidation card: the last run, a preview (a dry run) and a run now. */
export class ConsolidationCard {
  constructor(private readonly page: Page) {}

  card() {
    return this.page.getByTestId("consolidation-card");
  }

  report() {
    return this.card().getByRole("region", { name: /Preview of a run now|The run's report/ });
  }

  /** The count a report gives for the rule labelled `label`. */
  count(label: string) {
    return this.report().locator("div", { has: this.page.getByText(label, { exact: true }) }).locator("dd");
  }

  async preview() {
    await this.card().getByRole("button", { name: "Preview" }).click();
    await expect(this.report()).toContainText("nothing was changed");
  }

  async runNow() {
    await this.card().getByRole("button", { name: "Run now" }).click();
    const dialog = this.page.getByRole("dialog", { name: "Run the consolidation now?" });
    await dialog.getByRole("button", { name: "Run now" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.report()).toContainText("The run changed");
  }
}
