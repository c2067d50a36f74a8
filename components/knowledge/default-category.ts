import type { KnowledgeCategory } from "@/lib/console/knowledge-types";
import { parseMarkdownEntry } from "@/lib/knowledge/front-matter";

/** A file without a category in its front matter gets `category` (added to the front matter, or as one). */
export function withDefaultCategory(content: string, category: KnowledgeCategory | ""): string {
  if (!category) return content;
  const parsed = parseMarkdownEntry(content);
  if (!parsed.ok || parsed.fields.category) return content;
  const source = content.replace(/^\uFEFF/, "");
  return /^---[ \t]*\r?\n/.test(source)
    ? source.replace(/^---[ \t]*\r?\n/, `---\ncategory: ${category}\n`)
    : `---\ncategory: ${category}\n---\n${source}`;
}
