import "server-only";
import type { SpellingFix } from "./spelling";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { ServerResponse } from "@/lib/http/contract";
import { SEARCH_LEXICAL_WEIGHT } from "@/lib/retrieval/search/queries";
import type { knowledgeContracts, knowledgeEntryView, knowledgeSearchHitView, knowledgeVersionView } from "./contracts";

export type KnowledgeEntry = z.output<typeof knowledgeEntryView>;
export type KnowledgeSearchHit = z.output<typeof knowledgeSearchHitView>;
export type KnowledgeVersion = z.output<typeof knowledgeVersionView>;
type TagCount = ServerResponse<typeof knowledgeContracts.tags>["tags"][number];

const COLUMNS = `id, title, content, category, tags, version, status, created_by as "createdBy", updated_by as "updatedBy",
  created_at as "createdAt", updated_at as "updatedAt", accessed_count as "accessedCount",
  last_accessed_at as "lastAccessedAt", embedding is not null as "embedded"`;

type StatusFilter = "published" | "archived" | "all";

export async function listEntries(
  tx: Queryable,
  p: { status: StatusFilter; category?: string; tag?: string; limit: number; offset: number },
) {
  const rows = await tx.query<KnowledgeEntry & { total: number }>(
    `select ${COLUMNS}, count(*) over ()::int as total
       from knowledge_entries
      where ($1 = 'all' or status = $1)
        and ($2::text is null or category = $2)
        and ($3::text is null or tags @> array[$3::text])
      order by updated_at desc, id
      limit $4 offset $5`,
    [p.status, p.category ?? null, p.tag ?? null, p.limit, p.offset],
  );
  return { total: rows[0]?.total ?? 0, entries: rows.map(({ total: _total, ...entry }) => entry) };
}

/**
 * The one search of the knowledge base (search_knowledge: BM25 and vectors of `model` by weighted
 * scores), under RLS; retrieval's knowledge scope calls the same function.
 */
export function searchEntries(
  tx: Queryable,
  p: { text: string; embedding: string | null; model: string | null; limit: number; category?: string; tag?: string; includeArchived: boolean },
) {
  return tx.query<KnowledgeSearchHit>(
    `select id, title, content, category, tags, version, status, created_by as "createdBy", updated_by as "updatedBy",
            created_at as "createdAt", updated_at as "updatedAt", accessed_count as "accessedCount",
            last_accessed_at as "lastAccessedAt", has_embedding as "embedded", score, lexical_score as "lexicalScore",
            similarity, full_text_rank::int as "fullTextRank", semantic_rank::int as "semanticRank"
       from search_knowledge($1, $2::vector, $3, $4, $5, $6, $7, $8)`,
    [
      p.text, p.embedding, p.embedding ? p.model : null, p.limit, p.category ?? null, p.tag ? [p.tag] : null, p.includeArchived,
      SEARCH_LEXICAL_WEIGHT,
    ],
  );
}

/**
 * The searched words no published title or tag holds, with what they likely meant (mhq.knowledge_spelling:
 * swapped letters, other small edits, words typed together or apart), in word order.
 */
export function spellingSuggestions(tx: Queryable, p: { words: string[] }) {
  return tx.query<SpellingFix>(
    `select word, word_position as position, word_count as count, suggestion from mhq.knowledge_spelling($1::text[])`,
    [p.words],
  );
}

export async function getEntry(tx: Queryable, p: { id: string }) {
  const rows = await tx.query<KnowledgeEntry>(`select ${COLUMNS} from knowledge_entries where id = $1`, [p.id]);
  return rows[0] ?? null;
}

/** Null when a published entry already has this title (the partial unique index decides). */
export async function insertEntry(
  tx: Queryable,
  p: { title: string; content: string; category: string; tags: string[]; embedding: string | null },
) {
  const rows = await tx.query<KnowledgeEntry>(
    `insert into knowledge_entries (title, content, category, tags, embedding)
     values ($1, $2, $3, $4::text[], $5::vector)
     on conflict (lower(btrim(title))) where status = 'published' do nothing
     returning ${COLUMNS}`,
    [p.title, p.content, p.category, p.tags, p.embedding],
  );
  return rows[0] ?? null;
}

/** The published entry holding a title, if any (case-insensitive, like the unique index). */
export async function findPublishedByTitle(tx: Queryable, p: { title: string; exceptId?: string }) {
  const rows = await tx.query<Pick<KnowledgeEntry, "id" | "title">>(
    `select id, title from knowledge_entries
      where status = 'published' and lower(btrim(title)) = lower(btrim($1)) and ($2::uuid is null or id <> $2)`,
    [p.title, p.exceptId ?? null],
  );
  return rows[0] ?? null;
}

/** Which of these titles published entries already hold (case-insensitive): title as given → entry id. */
export async function takenTitles(tx: Queryable, p: { titles: string[] }) {
  if (!p.titles.length) return new Map<string, string>();
  const rows = await tx.query<{ title: string; id: string }>(
    `select t.title, k.id
       from unnest($1::text[]) as t (title)
       join knowledge_entries k on k.status = 'published' and lower(btrim(k.title)) = lower(btrim(t.title))`,
    [p.titles],
  );
  return new Map(rows.map((r) => [r.title, r.id]));
}

/**
 * Changes an entry if it is still at `expectedVersion`; null otherwise (or when it does not exist).
 * The version, editor and history row come from the trigger. `embedding`: a literal to store, null
 * to clear (text changed, provider unavailable), undefined to keep.
 */
export async function updateEntry(
  tx: Queryable,
  p: {
    id: string;
    expectedVersion: number;
    title?: string;
    content?: string;
    category?: string;
    tags?: string[];
    status?: string;
    embedding?: string | null;
  },
) {
  const rows = await tx.query<KnowledgeEntry>(
    `update knowledge_entries
        set title = coalesce($3, title),
            content = coalesce($4, content),
            category = coalesce($5, category),
            tags = coalesce($6::text[], tags),
            status = coalesce($7, status),
            embedding = case when $8 then $9::vector else embedding end
      where id = $1 and version = $2
      returning ${COLUMNS}`,
    [
      p.id,
      p.expectedVersion,
      p.title ?? null,
      p.content ?? null,
      p.category ?? null,
      p.tags ?? null,
      p.status ?? null,
      p.embedding !== undefined,
      p.embedding ?? null,
    ],
  );
  return rows[0] ?? null;
}

/** Every version of an entry, oldest first, the current one last. */
export async function listVersions(tx: Queryable, p: { entry: KnowledgeEntry }): Promise<KnowledgeVersion[]> {
  const rows = await tx.query<KnowledgeVersion>(
    `select version, title, content, category, tags, status, edited_by as "editedBy", edited_at as "editedAt",
            replaced_at as "replacedAt", false as current
       from knowledge_entry_versions
      where entry_id = $1
      order by version`,
    [p.entry.id],
  );
  const e = p.entry;
  return [
    ...rows,
    {
      version: e.version,
      title: e.title,
      content: e.content,
      category: e.category,
      tags: e.tags,
      status: e.status,
      editedBy: e.updatedBy,
      editedAt: e.updatedAt,
      replacedAt: null,
      current: true,
    },
  ];
}

export async function getVersion(tx: Queryable, p: { id: string; version: number }) {
  const rows = await tx.query<Omit<KnowledgeVersion, "current" | "replacedAt">>(
    `select version, title, content, category, tags, status, edited_by as "editedBy", edited_at as "editedAt"
       from knowledge_entry_versions where entry_id = $1 and version = $2`,
    [p.id, p.version],
  );
  return rows[0] ?? null;
}

/** Tags in use and how many entries carry each, most used first (the console's tag filter). */
export function listTags(tx: Queryable, p: { status: StatusFilter }) {
  return tx.query<TagCount>(
    `select t.tag, count(*)::int as count
       from knowledge_entries k, unnest(k.tags) as t (tag)
      where ($1 = 'all' or k.status = $1)
      group by t.tag
      order by count(*) desc, t.tag
      limit 500`,
    [p.status],
  );
}
