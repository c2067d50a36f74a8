import { expect, type Locator, type Page } from "@playwright/test";

/** /knowledge and /knowledge/[id]: the HQ knowledge base. */
export class KnowledgePage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/knowledge");
    await expect(this.page.getByRole("heading", { name: "Knowledge base", level: 1 })).toBeVisible();
  }

  async create(entry: { title: string; category: string; tags: string; content: string }) {
    await this.page.getByRole("link", { name: "New entry" }).first().click();
    await expect(this.page.getByRole("heading", { name: "New knowledge entry", level: 1 })).toBeVisible();
    await this.fillEditor(entry);
    await this.page.getByRole("button", { name: "Publish entry" }).click();
    await expect(this.page.getByRole("heading", { name: entry.title, level: 1 })).toBeVisible();
  }

  async fillEditor(entry: { title?: string; category?: string; tags?: string; content?: string }) {
    const form = this.page.getByRole("form", { name: "Knowledge entry" });
    if (entry.title !== undefined) await form.getByLabel("Title").fill(entry.title);
    if (entry.category !== undefined) await form.getByLabel("Category").selectOption({ label: entry.category });
    if (entry.tags !== undefined) await form.getByLabel("Tags").fill(entry.tags);
    if (entry.content !== undefined) await form.getByLabel("Content (markdown)").fill(entry.content);
  }

  tab(name: "Content" | "Edit" | "History") {
    return this.page.getByRole("tab", { name: new RegExp(`^${name}`) });
  }

  async edit(content: string) {
    await this.tab("Edit").click();
    await this.fillEditor({ content });
    await this.page.getByRole("button", { name: "Save changes" }).click();
  }

  notice(): Locator {
    return this.page.getByRole("status").filter({ hasText: /Saved as version|restored as version|Archived|Published again/ });
  }

  content(): Locator {
    return this.page.getByTestId("markdown-preview");
  }

  diff(): Locator {
    return this.page.getByTestId("knowledge-diff");
  }

  version(n: number): Locator {
    return this.page.getByTestId("knowledge-versions").getByRole("button", { name: new RegExp(`^Version ${n}\\b`) });
  }

  /** Restoring acts at once (Undo is in the toast). */
  async restore(n: number) {
    await this.version(n).click();
    await this.page.getByRole("button", { name: `Restore version ${n}` }).click();
  }

  async search(text: string) {
    await this.page.getByRole("searchbox", { name: "Search the knowledge base" }).fill(text);
  }

  row(title: string): Locator {
    return this.page.getByTestId("knowledge-row").filter({ hasText: title });
  }
}
