import "server-only";
import type { Queryable } from "@/lib/db";

/** A new import of the caller's (a knowledge-base writer), 'staging' until `leaseMs` from now unless renewed. */
export async function createImport(tx: Queryable, p: { entries: number; leaseMs: number }) {
  const [row] = await tx.query<{ id: string }>(
    `insert into knowledge_imports (entries, lease_until) values ($1, now() + $2 * interval '1 millisecond') returning id`,
    [p.entries, p.leaseMs],
  );
  return row!.id;
}

/** Renews the lease of the caller's import; false when it is no longer being written (given up). */
export async function renewImport(tx: Queryable, p: { id: string; leaseMs: number }) {
  const rows = await tx.query<{ id: string }>(
    `update knowledge_imports set lease_until = now() + $2 * interval '1 millisecond' where id = $1 and state = 'staging' returning id`,
    [p.id, p.leaseMs],
  );
  return rows.length > 0;
}

/**
 * Whether the caller's import is still being written, locking its row for the rest of the step (a
 * janitor giving it up waits for the step, and the step then sees it given up).
 */
export async function importStillStaging(tx: Queryable, p: { id: string }) {
  const rows = await tx.query(`select 1 from knowledge_imports where id = $1 and state = 'staging' for update`, [p.id]);
  return rows.length > 0;
}

/** Gives up the caller's import (a step failed): its entries stay hidden and are deleted by the janitor. */
export async function abandonImport(tx: Queryable, p: { id: string }) {
  await tx.query(`update knowledge_imports set state = 'abandoned' where id = $1 and state = 'staging'`, [p.id]);
}

/**
 * Writes entries of the import (one step), with the ids the import gave them; a title a published
 * entry holds skips its entry. (Not ON CONFLICT: naming the title there needs read access to the
 * new row, which its import hides. A title another import is writing at the same moment makes the
 * step fail with a unique violation: that import stores nothing and answers 409.)
 */
export async function insertImportEntries(
  tx: Queryable,
  p: { importId: string; entries: { id: string; title: string; content: string; category: string; tags: string[]; embedding: string | null }[] },
) {
  const col = <K extends keyof (typeof p.entries)[number]>(k: K) => p.entries.map((e) => e[k]);
  await tx.query(
    `insert into knowledge_entries (id, title, content, category, tags, embedding, import_id)
     select u.id, u.title, u.content, u.category, array(select jsonb_array_elements_text(u.tags)), u.embedding::vector, $7
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[]) with ordinality
            as u (id, title, content, category, tags, embedding, ord)
      where not exists (select 1 from knowledge_entries k where k.status = 'published' and lower(btrim(k.title)) = lower(btrim(u.title)))
      order by u.ord`,
    [col("id"), col("title"), col("content"), col("category"), p.entries.map((e) => JSON.stringify(e.tags)), col("embedding"), p.importId],
  );
}

/** Of these ids, the entries the caller's import holds (mhq.knowledge_import_written). */
export async function writtenEntries(tx: Queryable, p: { importId: string; ids: string[] }) {
  const [row] = await tx.query<{ ids: string[] }>(`select mhq.knowledge_import_written($1, $2::uuid[]) as ids`, [p.importId, p.ids]);
  return new Set(row?.ids ?? []);
}

/** Makes the caller's import visible; the number of entries published. */
export async function publishImport(tx: Queryable, p: { importId: string }) {
  const [row] = await tx.query<{ n: number }>(`select mhq.publish_knowledge_import($1) as n`, [p.importId]);
  return Number(row?.n ?? 0);
}

// ── the janitor's (the owning role's) ────────────────────────────────────────────────────────────

/** Gives up imports still 'staging' past their lease, or (at the start of the embedded database) all of them. */
export async function expireImports(db: Queryable, p: { all?: boolean } = {}) {
  await db.query(`update knowledge_imports set state = 'abandoned' where state = 'staging' and ($1 or lease_until < now())`, [p.all ?? false]);
}

export async function abandonedImports(tx: Queryable) {
  return (await tx.query<{ id: string }>(`select id from knowledge_imports where state = 'abandoned' order by created_at`)).map((r) => r.id);
}

/** Deletes up to `limit` entries of an import given up (in id order); the number deleted. */
export async function deleteImportEntries(tx: Queryable, p: { importId: string; limit: number }) {
  const rows = await tx.query<{ id: string }>(
    `delete from knowledge_entries
      where id in (select id from knowledge_entries where import_id = $1 order by id limit $2 for update)
      returning id`,
    [p.importId, p.limit],
  );
  return rows.length;
}

export async function deleteImport(tx: Queryable, p: { id: string }) {
  await tx.query(`delete from knowledge_imports where id = $1`, [p.id]);
}
