import "server-only";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { assertCan } from "@/lib/auth/permissions";
import { asCaller, type Queryable } from "@/lib/db";
import { embedQueryOrWhyNot, getEmbeddingProvider, toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { isKnownWord } from "@/lib/embeddings/local";
import { ApiError, notFound } from "@/lib/http/errors";
import { countAccessShown } from "@/lib/retrieval/usage/access-counts";
import { applyFloor, STRONG_SIMILARITY } from "@/lib/retrieval/search/relevance";
import { noteSearchWrite } from "@/lib/retrieval/search/term-stats";
import { knowledgeEmbeddingText } from "./embedding-text";
import { correctedWords, correctionCouldHelp, findsMuchMore, plausibleFix } from "./spelling";
import * as q from "./queries";
import type { KnowledgeEntry, KnowledgeSearchHit } from "./queries";
import { TITLE_MAX_CHARS, type CreateKnowledgeBody, type ListKnowledgeQuery, type UpdateKnowledgeBody } from "./schemas";

export type { KnowledgeEntry, KnowledgeSearchHit, KnowledgeVersion } from "./queries";

/** Embeds entries before any transaction opens (a slow provider never holds locks); null = queued. */
async function embedEntries(entries: { title: string; content: string }[]): Promise<(string | null)[]> {
  if (!entries.length) return [];
  const vectors = await tryEmbed(entries.map(knowledgeEmbeddingText));
  return entries.map((_, i) => (vectors ? toVectorLiteral(vectors[i]!) : null));
}

/** A search phrase's vector (outside any transaction), or null: the search then runs on full text alone. */
async function embedQuery(text: string): Promise<string | null> {
  return (await embedQueryWhy(text)).embedding;
}

/** The phrase's vector for a search, or why the search runs on its words alone. */
async function embedQueryWhy(text: string) {
  const { vector, skipped } = await embedQueryOrWhyNot(text);
  return { embedding: vector ? toVectorLiteral(vector) : null, skipped };
}

const requireEntry = async (tx: Queryable, id: string) => {
  const entry = await q.getEntry(tx, { id });
  if (!entry) throw notFound("Knowledge entry");
  return entry;
};

/**
 * Field agents read the knowledge base as HQ's: who wrote an entry or a version (internal agents,
 * HQ staff) is not theirs to know, so every author appears as "HQ". Internal agents and HQ see names.
 */
export const NEUTRAL_AUTHOR = "HQ";
const AUTHOR_FIELDS = new Set(["createdBy", "updatedBy", "editedBy"]);

function authorsFor<T>(caller: Caller, value: T): T {
  if (caller.type !== "agent" || caller.kind !== "field") return value;
  const neutral = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(neutral);
    if (v === null || typeof v !== "object" || v instanceof Date) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, AUTHOR_FIELDS.has(k) && typeof x === "string" ? NEUTRAL_AUTHOR : neutral(x)]),
    );
  };
  return neutral(value) as T;
}

const versionConflict = (expected: number, current: KnowledgeEntry) =>
  new ApiError(
    "version_conflict",
    `The entry changed since version ${expected} (it is now at version ${current.version}, saved by ${current.updatedBy})`,
    { expectedVersion: expected, current },
  );

const titleTaken = (title: string, existingId: string) =>
  new ApiError("conflict", `A published entry titled "${title}" already exists`, { existingId });

/** What is served to an agent counts as used. HQ browsing is curation, not use. */
async function countServed<T extends KnowledgeEntry>(tx: Queryable, caller: Caller, entries: T[]): Promise<T[]> {
  if (caller.type !== "agent" || !entries.length) return entries;
  // only published entries count: a writer agent looking through drafts or archives is curating
  const ids = entries.filter((e) => e.status === "published").map((e) => e.id);
  if (!ids.length) return entries;
  const shown = await countAccessShown(tx, "knowledge", ids);
  return entries.map((e) => {
    const p = shown.get(e.id);
    return p ? { ...e, accessedCount: e.accessedCount + p.count, lastAccessedAt: p.at } : e;
  });
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Hybrid search of the knowledge base inside the caller's transaction: BM25 and vector similarity
 * fused by weighted scores (the SQL function), under the caller's RLS. When the
 * embedding provider is unavailable the search runs on full text alone. Other domains (escalations'
 * similar knowledge) call this; pass `embedding` (a vector literal made before the transaction
 * opened) so a slow provider never holds it open. It does not count access; `listKnowledge` does
 * for agents.
 */
export async function searchKnowledge(
  tx: Queryable,
  p: { text: string; limit: number; category?: string; tag?: string; includeArchived?: boolean; embedding?: string | null },
): Promise<KnowledgeSearchHit[]> {
  const embedding = p.embedding !== undefined ? p.embedding : await embedQuery(p.text);
  return q.searchEntries(tx, { ...p, embedding, model: getEmbeddingProvider().model, includeArchived: p.includeArchived ?? false });
}

/**
 * Search hits scoring below this share of the best hit's score are left out: the score is 60% the
 * words' BM25 (relative to the best) and 40% the closeness in meaning, so a hit at a third of the
 * best matched few of the words and little of the meaning — a weak match, not one of the "best".
 */
export const RELATIVE_SCORE_CUTOFF = 1 / 3;

/** The query's words, for the spelling check (letters and digits; the rest separates words). */
const queryWords = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** GET /knowledge: the newest entries, or with `q` the best hybrid-search matches. */
export async function listKnowledge(caller: Caller, query: ListKnowledgeQuery) {
  const text = query.q?.trim() ?? "";
  if (text) {
    const search = async (tx: Queryable, words: string, embedding: string | null, nearMisses = false) => {
      const hits = await q.searchEntries(tx, {
        text: words,
        embedding,
        model: getEmbeddingProvider().model,
        limit: query.limit,
        category: query.category,
        tag: query.tag,
        includeArchived: query.status !== "published",
      });
      // the relevance floor: a search for nonsense answers "no matching entries", not the nearest ones
      const relevant = applyFloor(
        hits,
        (h) => ({ text: `${h.title}\n${h.content}`, similarity: h.similarity, matched: h.fullTextRank !== null }),
        words,
        getEmbeddingProvider().name === "local" ? STRONG_SIMILARITY.local : STRONG_SIMILARITY.other,
        { nearMisses },
      );
      const best = relevant[0]?.score ?? 0;
      const kept = relevant.filter((h) => h.score >= best * RELATIVE_SCORE_CUTOFF);
      return query.status === "archived" ? kept.filter((h) => h.status === "archived") : kept;
    };
    const { embedding, skipped } = await embedQueryWhy(text);
    const answer = (entries: KnowledgeSearchHit[], didYouMean: string | null, corrected: boolean) =>
      authorsFor(caller, {
        mode: "search" as const,
        query: text,
        semantic: embedding !== null,
        ...(skipped ? { semanticSkipped: skipped } : {}),
        entries,
        ...(didYouMean ? { didYouMean, showingDidYouMean: corrected } : {}),
        scoreCutoff: RELATIVE_SCORE_CUTOFF,
      });
    // "did you mean": the words no title or tag holds, read as what they likely meant, checked only
    // when what the words as typed found leaves room for a correction to find more. When neither the
    // words as typed nor a correction find anything, the relevance floor forgives near misses: a
    // misspelling that is a word elsewhere ("gaz leak") does not leave the words spelt right unanswered.
    const words = queryWords(text);
    type First = { answer: ReturnType<typeof answer> } | { found: KnowledgeSearchHit[]; didYouMean: string };
    const first = await asCaller(caller, async (tx): Promise<First> => {
      const found = await search(tx, text, embedding);
      const fixes = correctionCouldHelp(found.length, query.limit)
        ? (await q.spellingSuggestions(tx, { words })).filter((fix) => plausibleFix(fix, isKnownWord))
        : [];
      const corrected = correctedWords(words, fixes);
      const didYouMean = corrected !== null && corrected !== words.join(" ") ? corrected : null;
      if (didYouMean) return { found, didYouMean };
      // nothing to suggest: what is served is counted in the same transaction
      return { answer: answer(await countServed(tx, caller, found.length ? found : await search(tx, text, embedding, true)), null, false) };
    });
    if ("answer" in first) return first.answer;
    // the corrected words are searched too (their own vector, made outside any transaction): shown
    // instead when nothing matched as typed, suggested only when they find much more
    const { found, didYouMean } = first;
    const correctedEmbedding = await embedQuery(didYouMean);
    return asCaller(caller, async (tx) => {
      const better = await search(tx, didYouMean, correctedEmbedding);
      if (!found.length && better.length) return answer(await countServed(tx, caller, better), didYouMean, true);
      // neither found anything: a word a letter or two off one an entry holds counts as held
      if (!found.length) return answer(await countServed(tx, caller, await search(tx, text, embedding, true)), didYouMean, false);
      return answer(await countServed(tx, caller, found), findsMuchMore(better.length, found.length) ? didYouMean : null, false);
    });
  }
  return asCaller(caller, async (tx) => {
    const { entries, total } = await q.listEntries(tx, query);
    return authorsFor(caller, { mode: "list" as const, entries, total, limit: query.limit, offset: query.offset });
  });
}

/** GET /knowledge/{id}: one entry (an agent reading it counts as a use). */
export async function getKnowledge(caller: Caller, id: string) {
  return asCaller(caller, async (tx) => {
    const [entry] = await countServed(tx, caller, [await requireEntry(tx, id)]);
    return authorsFor(caller, { entry: entry! });
  });
}

/** GET /knowledge/{id}/versions: every version, oldest first; the last is the current one. */
export async function listKnowledgeVersions(caller: Caller, id: string) {
  return asCaller(caller, async (tx) => {
    const entry = await requireEntry(tx, id);
    return authorsFor(caller, { entryId: id, currentVersion: entry.version, versions: await q.listVersions(tx, { entry }) });
  });
}

/** GET /knowledge/tags: the tags in use, for the console's filter. */
export async function listKnowledgeTags(caller: Caller) {
  return { tags: await asCaller(caller, (tx) => q.listTags(tx, { status: "published" })) };
}

// ── writing (HQ admins and curators, internal agents with kbAccess "write"; RLS enforces it again) ─

export async function createKnowledge(caller: Caller, body: CreateKnowledgeBody) {
  assertCan(caller, "knowledge.write");
  const embedding = await embedKnowledgeEntry(body);
  return asCaller(caller, async (tx) => ({ entry: await writeKnowledgeEntry(tx, body, embedding) }));
}

/** The embedding of an entry about to be written (outside any transaction), or null: queued for re-embedding. */
export async function embedKnowledgeEntry(body: { title: string; content: string }): Promise<string | null> {
  return (await embedEntries([body]))[0] ?? null;
}

/** A published entry another domain links to (an escalation resolved by an existing fix): 422 when absent or archived. */
export async function requirePublishedEntry(tx: Queryable, id: string) {
  const entry = await q.getEntry(tx, { id });
  if (!entry || entry.status !== "published") throw new ApiError("validation_failed", "knowledgeEntryId: no published knowledge entry has this id");
  return entry;
}

/**
 * A title no published entry holds yet: `title`, else `title (2)`, `(3)`… — for entries HQ composes
 * itself (an escalation's published fix), which must not fail on a title someone already used.
 */
export async function freeTitle(tx: Queryable, title: string): Promise<string> {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : ` (${n})`;
    const candidate = `${title.slice(0, TITLE_MAX_CHARS - suffix.length).trim()}${suffix}`;
    if (!(await q.findPublishedByTitle(tx, { title: candidate }))) return candidate;
  }
}

/**
 * Writes a new entry inside the caller's transaction and audits it, so another domain (an escalation's
 * resolution) can create an entry and link it in one commit. The caller must hold knowledge.write.
 */
export async function writeKnowledgeEntry(tx: Queryable, body: CreateKnowledgeBody, embedding: string | null) {
  // the search statistics take the write's deltas in a batch (lib/retrieval/search/term-stats.ts)
  noteSearchWrite();
  const entry = await q.insertEntry(tx, { ...body, tags: body.tags ?? [], embedding });
  if (!entry) {
    const existing = await q.findPublishedByTitle(tx, { title: body.title });
    throw titleTaken(body.title, existing?.id ?? "");
  }
  await recordAudit(tx, {
    action: "knowledge.create",
    targetType: "knowledge_entry",
    targetId: entry.id,
    details: { title: entry.title, category: entry.category, embedded: entry.embedded },
  });
  return entry;
}

type EntryChange = Partial<Pick<KnowledgeEntry, "title" | "content" | "category" | "tags" | "status">>;

/**
 * Applies a change to the version the caller based it on. With `expectedVersion` a stale edit is a
 * 409; without it the change applies to the latest version (retried if someone saves in between,
 * so the embedding always matches the text it is stored with). The trigger keeps the previous
 * version and raises the version number.
 */
async function changeEntry(
  caller: Caller,
  id: string,
  expectedVersion: number | undefined,
  plan: (current: KnowledgeEntry) => { change: EntryChange; action: string; details?: Record<string, unknown> },
) {
  for (let attempt = 0; ; attempt++) {
    const current = await asCaller(caller, (tx) => requireEntry(tx, id));
    if (expectedVersion !== undefined && expectedVersion !== current.version) throw versionConflict(expectedVersion, current);
    const { change, action, details } = plan(current);
    const next = { title: change.title ?? current.title, content: change.content ?? current.content };
    const textChanged = next.title !== current.title || next.content !== current.content;
    const embedding = textChanged ? (await embedEntries([next]))[0] : undefined;

    noteSearchWrite();
    const result = await asCaller(caller, async (tx) => {
      if (change.title !== undefined || change.status === "published") {
        const willBePublished = (change.status ?? current.status) === "published";
        const clash = willBePublished ? await q.findPublishedByTitle(tx, { title: next.title, exceptId: id }) : null;
        if (clash) throw titleTaken(next.title, clash.id);
      }
      const entry = await q.updateEntry(tx, { id, expectedVersion: current.version, ...change, embedding });
      if (!entry) return null;
      if (entry.version !== current.version) {
        await recordAudit(tx, {
          action,
          targetType: "knowledge_entry",
          targetId: id,
          details: { title: entry.title, fromVersion: current.version, version: entry.version, fields: Object.keys(change), ...details },
        });
      }
      return { entry };
    });
    if (result) return result;
    const now = await asCaller(caller, (tx) => requireEntry(tx, id));
    if (expectedVersion !== undefined || attempt >= 2) throw versionConflict(expectedVersion ?? current.version, now);
  }
}

/** PATCH /knowledge/{id} */
export async function updateKnowledge(caller: Caller, id: string, body: UpdateKnowledgeBody) {
  assertCan(caller, "knowledge.write");
  const { expectedVersion, ...change } = body;
  return changeEntry(caller, id, expectedVersion, (current) => ({
    change,
    action:
      change.status === "archived" && current.status !== "archived"
        ? "knowledge.archive"
        : change.status === "published" && current.status !== "published"
          ? "knowledge.unarchive"
          : "knowledge.update",
  }));
}

/** DELETE /knowledge/{id}: archives (withdraws from agents), never deletes; archiving twice is a no-op. */
export async function archiveKnowledge(caller: Caller, id: string) {
  assertCan(caller, "knowledge.write");
  return changeEntry(caller, id, undefined, () => ({ change: { status: "archived" }, action: "knowledge.archive" }));
}

/** POST /knowledge/{id}/restore: an earlier version's title, content, category and tags become a new version. */
export async function restoreKnowledge(
  caller: Caller,
  id: string,
  body: { version: number; expectedVersion?: number },
) {
  assertCan(caller, "knowledge.write");
  const old = await asCaller(caller, async (tx) => {
    const entry = await requireEntry(tx, id);
    if (body.version === entry.version) {
      throw new ApiError("validation_failed", `Version ${body.version} is the current version; there is nothing to restore`);
    }
    const version = await q.getVersion(tx, { id, version: body.version });
    if (!version) throw new ApiError("not_found", `Version ${body.version} of this entry does not exist (it is at version ${entry.version})`);
    return version;
  });
  const result = await changeEntry(caller, id, body.expectedVersion, () => ({
    change: { title: old.title, content: old.content, category: old.category, tags: old.tags },
    action: "knowledge.restore",
    details: { restoredVersion: old.version },
  }));
  return { ...result, restoredFrom: old.version };
}
