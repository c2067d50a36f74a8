// The lifecycle rules as plain data and pure functions: what the nightly consolidation archives,
// prunes, promotes and flags, and how the surprise filter judges a learning-tier write.

const DAY_MS = 24 * 60 * 60 * 1000;

/** daily notes older than 7 days are archived: still readable, no longer in the boot context */
export const DAILY_NOTE_KEEP_DAYS = 7;
/** resolved working items are pruned (archived) 14 days after they were resolved */
export const RESOLVED_WORKING_KEEP_DAYS = 14;
/** core memories not edited or confirmed for this long are flagged for verification */
export const CORE_VERIFY_AFTER_DAYS = 30;

/**
 * The promotion rule: an active, agent-scope learning memory that keeps recurring or keeps being
 * used — retrieved, read or reinforced by near-duplicate writes at least 5 times — held with
 * confidence ≥ 0.8, and at least 3 days old, becomes a core memory. Decisions and outcomes are
 * records, not patterns: they are never promoted. Team memories are shared and never promoted.
 */
export const PROMOTION_MIN_USES = 5;
export const PROMOTION_MIN_CONFIDENCE = 0.8;
export const PROMOTION_MIN_AGE_DAYS = 3;
export const PROMOTABLE_CATEGORIES = ["pattern", "insight", "lesson", "correction", "strategy"] as const;

/**
 * Where a promoted memory goes in the core tier. Field agents only ever into their client's
 * procedures and preferences; internal agents' corrections and insights become principles.
 */
export function promotedCategory(kind: "internal" | "field", learningCategory: string): "procedure" | "preference" | "principle" {
  const habit = learningCategory === "correction" || learningCategory === "insight";
  if (kind === "field") return habit ? "preference" : "procedure";
  return habit ? "principle" : "procedure";
}

/** the local calendar day `days` before `date` (YYYY-MM-DD), calendar arithmetic in UTC */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

// ── the surprise filter ────────────────────────────────────────────────────────────────────────

/**
 * Novelty of a learning-tier write against the agent's active memories: similarity to the nearest
 * one is 0.6 × cosine similarity of the embeddings + 0.4 × word overlap (Jaccard of the content
 * words); the surprise score is 1 − that similarity. At similarity ≥ 0.85 the write is a
 * near-duplicate: nothing new is stored and the existing memory is reinforced instead.
 */
export const SIMILARITY_COSINE_WEIGHT = 0.6;
export const SIMILARITY_WORD_WEIGHT = 0.4;
export const NEAR_DUPLICATE_SIMILARITY = 0.85;
/** a reinforced memory gains this much confidence (capped at 0.99) and one use */
export const REINFORCE_CONFIDENCE_STEP = 0.05;
export const REINFORCE_CONFIDENCE_MAX = 0.99;
/** how many nearest active memories the filter compares against */
export const NOVELTY_NEIGHBOURS = 5;

const STOP = new Set(
  "a an and are as at be but by for from has have i if in into is it its of on or so that the their them they this to was we were will with you your".split(" "),
);

export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().normalize("NFKD").match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => !STOP.has(w)).map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w)));
}

export function wordOverlap(a: string, b: string): number {
  const wa = contentWords(a);
  const wb = contentWords(b);
  if (!wa.size && !wb.size) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

export function combinedSimilarity(cosine: number, overlap: number): number {
  const s = SIMILARITY_COSINE_WEIGHT * Math.max(0, cosine) + SIMILARITY_WORD_WEIGHT * overlap;
  return Math.min(1, Math.max(0, s));
}

export const surpriseFrom = (similarity: number) => Math.round((1 - similarity) * 1000) / 1000;

/** Rounded to a millionth, so that 0.8 reinforced reads 0.85 and not 0.8500000000000001. */
export const reinforcedConfidence = (existing: number, incoming: number) =>
  Math.round(Math.min(REINFORCE_CONFIDENCE_MAX, Math.max(existing, incoming) + REINFORCE_CONFIDENCE_STEP) * 1e6) / 1e6;

// ── escalations ────────────────────────────────────────────────────────────────────────────────

/**
 * A captured fix is offered as `knownFix` when the knowledge search ranks it among the escalation's
 * similar entries and its title or text is at least this similar to the question (same measure as
 * the surprise filter) while sharing some of its words. Averaged word vectors rate two sentences
 * about work somewhat alike even when they are about different things, so similarity alone would
 * offer a fix for an unrelated question: measured with the local model, questions about the same
 * problem as a fix scored 0.37–0.61 with a word overlap of 0.13–0.22 (one, sharing only "customer",
 * 0.20), questions about other things 0.11–0.48 with an overlap of at most 0.06.
 */
export const KNOWN_FIX_MIN_SIMILARITY = 0.35;
export const KNOWN_FIX_MIN_WORD_OVERLAP = 0.1;

/** Whether a captured fix answers the question, by the rule above. */
export function isKnownFix(similarity: number, overlap: number): boolean {
  return similarity >= KNOWN_FIX_MIN_SIMILARITY && overlap >= KNOWN_FIX_MIN_WORD_OVERLAP;
}
export const SIMILAR_KNOWLEDGE_LIMIT = 5;
