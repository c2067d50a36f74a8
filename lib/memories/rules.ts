// The memory_write rules, as plain data and pure functions.

export const MEMORY_TIERS = ["core", "working", "learning"] as const;
export type MemoryTier = (typeof MEMORY_TIERS)[number];

/** Which categories belong to which tier (the database checks the same pairs). */
export const CATEGORIES_BY_TIER = {
  core: ["identity", "client", "procedure", "preference", "principle", "team"],
  working: ["project", "thread", "commitment"],
  learning: ["decision", "correction", "insight", "outcome", "pattern", "strategy", "lesson"],
} as const satisfies Record<MemoryTier, readonly string[]>;

export type MemoryCategory = (typeof CATEGORIES_BY_TIER)[MemoryTier][number];
export const MEMORY_CATEGORIES = Object.values(CATEGORIES_BY_TIER).flat() as MemoryCategory[];

export const MEMORY_STATUSES = ["active", "resolved", "archived"] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

export const MEMORY_SCOPES = ["agent", "team"] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** a title is a short, searchable summary */
export const TITLE_MAX_CHARS = 200;
export const CONTENT_MAX_CHARS = 20_000;
/** below this an agent is guessing, not remembering */
export const MIN_CONFIDENCE = 0.4;
/** learning entries below this confidence expire unless accessed */
export const LOW_CONFIDENCE = 0.5;
export const LOW_CONFIDENCE_TTL_DAYS = 7;
/** active agent-scope memories per agent; past it the least valuable is archived */
export const MEMORY_CAP = 200;
/** an observed outcome is a fact about the world, not a guess */
export const OUTCOME_CONFIDENCE = 0.9;
/** boot: how far back "recent working items" and team highlights reach (3–7 days) */
export const RECENT_DAYS = 7;

export function categoryFitsTier(tier: MemoryTier, category: string): boolean {
  return (CATEGORIES_BY_TIER[tier] as readonly string[]).includes(category);
}

/** a low-confidence learning entry expires 7 days after it is written; others never. */
export function expiresAtFor(tier: MemoryTier, confidence: number, now: Date): Date | null {
  if (tier !== "learning" || confidence >= LOW_CONFIDENCE) return null;
  return new Date(now.getTime() + LOW_CONFIDENCE_TTL_DAYS * 24 * 60 * 60 * 1000);
}

/** The text a memory's embedding is computed from (the backfill uses the same expression in SQL). */
export function memoryEmbeddingText(m: { title: string; content: string }): string {
  return m.content ? `${m.title}\n\n${m.content}` : m.title;
}
