import { z } from "zod";

/** the knowledge base's categories, named as the tags agents use */
export const KNOWLEDGE_CATEGORIES = ["procedure", "best-practice", "template", "skill-doc", "escalation", "tool-guide"] as const;
export type KnowledgeCategory = (typeof KNOWLEDGE_CATEGORIES)[number];
export const KNOWLEDGE_STATUSES = ["published", "archived"] as const;

export const TITLE_MAX_CHARS = 200;
export const CONTENT_MAX_CHARS = 100_000;
export const TAG_MAX_CHARS = 40;
export const TAGS_MAX = 20;
/** entries (or files) in one import */
export const IMPORT_MAX_ITEMS = 500;
/** the import body may be larger than other bodies: many markdown files at once */
export const IMPORT_MAX_BODY_BYTES = 8_000_000;

export const knowledgeCategory = z.enum(KNOWLEDGE_CATEGORIES, {
  error: () => `category must be one of ${KNOWLEDGE_CATEGORIES.join(", ")}`,
});
export const knowledgeStatus = z.enum(KNOWLEDGE_STATUSES);

/** "Field Agents" → "field-agents": tags are lower-case words joined by hyphens */
export function normalizeTag(tag: string): string {
  return tag
    .trim()
    .toLowerCase()
    .replace(/^#/, "")
    .replace(/[\s_]+/g, "-")
    .replace(/-+/g, "-");
}

const tag = z
  .string()
  .transform(normalizeTag)
  .pipe(
    z
      .string()
      .min(1, "a tag cannot be empty")
      .max(TAG_MAX_CHARS, `a tag is limited to ${TAG_MAX_CHARS} characters`)
      .regex(/^[\p{Ll}\p{N}][\p{Ll}\p{N}.+-]*$/u, "a tag is letters, digits, '.', '+' and '-'"),
  );

export const knowledgeTags = z
  .array(tag)
  .max(TAGS_MAX, `at most ${TAGS_MAX} tags`)
  .transform((tags) => [...new Set(tags)]);

const title = z
  .string()
  .trim()
  .min(1, "title is required")
  .max(TITLE_MAX_CHARS, `title is limited to ${TITLE_MAX_CHARS} characters`);
const content = z
  .string()
  .refine((s) => s.trim().length > 0, "content is required")
  .refine((s) => s.length <= CONTENT_MAX_CHARS, `content is limited to ${CONTENT_MAX_CHARS} characters`);
const version = z.number().int().min(1);

export const createKnowledgeBody = z
  .object({ title, content, category: knowledgeCategory, tags: knowledgeTags.optional() })
  .strict();

export const updateKnowledgeBody = z
  .object({
    title: title.optional(),
    content: content.optional(),
    category: knowledgeCategory.optional(),
    tags: knowledgeTags.optional(),
    status: knowledgeStatus.optional().describe("`archived` withdraws the entry (as DELETE does); `published` brings it back"),
    expectedVersion: version.optional().describe("the version the edit is based on: 409 `version_conflict` when someone saved since"),
  })
  .strict()
  .refine((b) => Object.keys(b).some((k) => k !== "expectedVersion"), "change at least one of title, content, category, tags, status");

export const restoreKnowledgeBody = z
  .object({
    /** the earlier version whose title, content, category and tags become the next version */
    version,
    expectedVersion: version.optional(),
  })
  .strict();

export const listKnowledgeQuery = z
  .object({
    q: z.string().trim().max(500).optional().describe("hybrid search (BM25 and vector similarity by weighted scores) when given; words, \"phrases\", -not, or"),
    category: knowledgeCategory.optional(),
    tag: tag.optional(),
    status: z.enum([...KNOWLEDGE_STATUSES, "all"]).default("published").describe("default `published`; `archived` and `all` are for HQ users and writers (RLS hides archived entries from readers)"),
    limit: z.coerce.number().int().min(1).max(200).default(20),
    offset: z.coerce.number().int().min(0).max(100_000).default(0).describe("paging of the plain list (ignored by search, which returns the best `limit`)"),
  })
  .strict();

const importFile = z
  .object({
    name: z.string().trim().min(1).max(255),
    // bounded by the request's size alone: a file whose content is too long is refused on its own, in the report
    content: z.string().max(IMPORT_MAX_BODY_BYTES).describe("markdown with front matter: `---\\ntitle: …\\ncategory: …\\ntags: [a, b]\\n---\\nbody`"),
  })
  .strict();

/**
 * Many entries at once: `entries` shaped like POST /knowledge's body, and/or markdown `files`.
 * Each item is validated on its own and reported as created, skipped (duplicate title) or refused
 * (with the reasons), so one bad item never hides the others. `dryRun` reports without writing.
 */
export const importKnowledgeBody = z
  .object({
    entries: z
      .array(z.unknown())
      .max(IMPORT_MAX_ITEMS)
      .optional()
      .describe("Each like POST /api/v1/knowledge's body: {title, content, category, tags?}"),
    files: z.array(importFile).max(IMPORT_MAX_ITEMS).optional(),
    dryRun: z.boolean().optional(),
  })
  .strict()
  .refine((b) => (b.entries?.length ?? 0) + (b.files?.length ?? 0) > 0, "send at least one entry or file")
  .refine(
    (b) => (b.entries?.length ?? 0) + (b.files?.length ?? 0) <= IMPORT_MAX_ITEMS,
    `at most ${IMPORT_MAX_ITEMS} entries and files per import`,
  );

export type CreateKnowledgeBody = z.infer<typeof createKnowledgeBody>;
export type UpdateKnowledgeBody = z.infer<typeof updateKnowledgeBody>;
export type ListKnowledgeQuery = z.infer<typeof listKnowledgeQuery>;
export type ImportKnowledgeBody = z.infer<typeof importKnowledgeBody>;
